/** The S3 part of a simulated account's state (world-state.ts `AccountState.buckets` / `.objects`). */

/** A bucket CreateBucket made (buckets of stacks are their AWS::S3::Bucket resources). */
export interface BucketRecord {
  readonly name: string;
  /** The cluster whose ports created it: its shard holds the record. */
  readonly cluster: string;
  readonly createdAt: number;
}

/** An object PutObject stored. */
export interface ObjectRecord {
  readonly bucket: string;
  readonly key: string;
  /** The cluster whose ports wrote it: its shard holds the record. */
  readonly cluster: string;
  /** base64 */
  readonly body: string;
  readonly lastModified: number;
}
