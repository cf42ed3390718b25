/**
 * Where nodes get their files from (CLM §4.5, §6.2 step 9, §6.4): S3 and KMS of the cluster's account and region, used
 * with the cluster account's credentials (the assumed role there), never CLM's own account.
 */
export interface NodeFilesStore {
  /** KMS Encrypt with a key of the cluster's account (id, ARN or alias), no encryption context (as CLM). */
  encrypt(keyId: string, plaintext: Uint8Array): Promise<Uint8Array>;
  /**
   * S3 PutObject. With `createBucket` a missing bucket is created first, in the cluster's region (`LocationConstraint`
   * there, none in us-east-1), "already owned by you" counting as created; without it a missing bucket is an error
   * naming it.
   */
  put(object: {
    readonly bucket: string;
    readonly key: string;
    readonly body: Uint8Array;
    readonly createBucket: boolean;
  }): Promise<void>;
}
