/**
 * ArtifactStore on one S3 bucket (optionally under a key prefix). Bodies are UTF-8 text: rendered configs, templates.
 *
 * `urlFor` gives the https URL CloudFormation reads a TemplateURL from: virtual-hosted on AWS
 * (`https://<bucket>.s3.<region>.amazonaws.com/<key>`), and path-style on the AWS host when an endpoint is set
 * (`https://s3.<region>.amazonaws.com/<bucket>/<key>`). An emulator never fetches that URL; it parses bucket and key
 * out of it, and moto only understands the AWS host forms (or a "localhost" host): a `http://127.0.0.1:port/...`
 * URL makes moto take "127" for the bucket name (verified against moto 5.2).
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ArtifactStore, PutOptions } from '../../ports/artifact-store';
import { awsErrorName, toClmError } from './aws-errors';
import { createBucket } from './s3-buckets';

export interface S3ArtifactStoreOptions {
  readonly bucket: string;
  /** Prepended to every key, e.g. `clm/`. @default '' */
  readonly prefix?: string;
  /** The bucket's region, for virtual-hosted URLs. */
  readonly region: string;
  /** Same endpoint the S3 client uses (moto); URLs are then path-style. @default - AWS */
  readonly endpoint?: string;
  /**
   * Create the bucket on the first put that finds it missing (CLM §6.2 step 9 creates its per-account template
   * bucket), then put again. "Already owned by you" counts as created. @default false
   */
  readonly createBucketIfMissing?: boolean;
}

const MISSING: ReadonlySet<string> = new Set(['NoSuchKey', 'NotFound']);
const TAKEN: ReadonlySet<string> = new Set(['PreconditionFailed', 'ConditionalRequestConflict']);

export class S3ArtifactStore implements ArtifactStore {
  private readonly client: S3Client;
  private readonly options: S3ArtifactStoreOptions;

  constructor(client: S3Client, options: S3ArtifactStoreOptions) {
    this.client = client;
    this.options = options;
  }

  async put(key: string, body: string, options?: PutOptions): Promise<void> {
    const fullKey = this.fullKey(key);
    const put = () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: fullKey,
          Body: body,
          ContentType: options?.contentType ?? 'text/plain; charset=utf-8',
        }),
      );
    try {
      await put();
    } catch (error) {
      if (!(this.options.createBucketIfMissing && awsErrorName(error) === 'NoSuchBucket'))
        throw toClmError(error, `S3 PutObject s3://${this.options.bucket}/${fullKey}`);
      await this.createBucket();
      try {
        await put();
      } catch (retryError) {
        throw toClmError(retryError, `S3 PutObject s3://${this.options.bucket}/${fullKey}`);
      }
    }
  }

  private async createBucket(): Promise<void> {
    await createBucket(this.client, this.options.bucket, this.options.region);
  }

  async putOnce(key: string, body: string | Uint8Array): Promise<boolean> {
    const fullKey = this.fullKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: fullKey,
          Body: body,
          ContentType: typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream',
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      // 412: an object is there. 409: another conditional write of the key is under way (it wins).
      if (TAKEN.has(awsErrorName(error))) return false;
      throw toClmError(error, `S3 PutObject (if none) s3://${this.options.bucket}/${fullKey}`);
    }
  }

  async getBytes(key: string): Promise<Uint8Array | undefined> {
    const fullKey = this.fullKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: fullKey }));
      return out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (MISSING.has(awsErrorName(error))) return undefined;
      throw toClmError(error, `S3 GetObject s3://${this.options.bucket}/${fullKey}`);
    }
  }

  async get(key: string): Promise<string | undefined> {
    const fullKey = this.fullKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: fullKey }));
      return out.Body ? await out.Body.transformToString('utf-8') : '';
    } catch (error) {
      if (MISSING.has(awsErrorName(error))) return undefined;
      throw toClmError(error, `S3 GetObject s3://${this.options.bucket}/${fullKey}`);
    }
  }

  locationOf(key: string): string {
    return `s3://${this.options.bucket}/${this.fullKey(key)}`;
  }

  urlFor(key: string): string {
    const path = this.fullKey(key).split('/').map(encodeURIComponent).join('/');
    const { bucket, region, endpoint } = this.options;
    if (endpoint) return `https://s3.${region}.amazonaws.com/${bucket}/${path}`;
    return `https://${bucket}.s3.${region}.amazonaws.com/${path}`;
  }

  private fullKey(key: string): string {
    return `${this.options.prefix ?? ''}${key}`;
  }
}
