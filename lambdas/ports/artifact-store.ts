/** Rendered configs and other artefacts (S3 in AWS). Keys are content-addressed where it matters. */
export interface ArtifactStore {
  put(key: string, body: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** A URL CloudFormation can read a template from (templates over 51,200 bytes). */
  urlFor?(key: string): string;
}
