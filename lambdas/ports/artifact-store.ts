export interface PutOptions {
  /** The object's Content-Type (S3 serves it with it: the fleet page is `text/html; charset=utf-8`). */
  readonly contentType?: string;
}

/** Rendered configs and other artefacts (S3 in AWS). Keys are content-addressed where it matters. */
export interface ArtifactStore {
  /** Write (or overwrite) a text object; `contentType` defaults to `text/plain; charset=utf-8`. */
  put(key: string, body: string, options?: PutOptions): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /**
   * Write an object only when its key is free (S3: `If-None-Match: *`, checked by the store, so two writers cannot
   * both win): true when written, false when an object was there already (left as it was). Released cluster stacks
   * are written this way: a released version never changes.
   */
  putOnce(key: string, body: string | Uint8Array): Promise<boolean>;
  /** An object's bytes (a released stack's tarball), undefined when there is none. */
  getBytes(key: string): Promise<Uint8Array | undefined>;
  /** Where an object lives, for messages: `s3://bucket/key`, a file path. */
  locationOf?(key: string): string;
  /** A URL CloudFormation can read a template from (templates over 51,200 bytes). */
  urlFor?(key: string): string;
}
