import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { findStackBucket } from './access-model';

/**
 * S3 of the simulated accounts, as far as files bundles need it: buckets (made by CreateBucket, or by a stack's
 * AWS::S3::Bucket), names global across the world, each owned by one account; objects put into them. A bucket of
 * another account refuses writes (no cross-account grants are modelled for CLM's own writes).
 */

export class S3Error extends Error {
  constructor(
    readonly code: 'NoSuchBucket' | 'NoSuchKey' | 'AccessDenied' | 'BucketAlreadyExists',
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export interface BucketOwner {
  readonly account: AccountState;
}

/** Where a bucket lives, if anywhere. */
export function findBucket(ctx: SimContext, name: string): BucketOwner | undefined {
  for (const key of Object.keys(ctx.state.accounts).sort()) {
    const account = ctx.state.accounts[key]!;
    if (account.buckets?.[name]) return { account };
  }
  const stack = findStackBucket(ctx, name);
  return stack ? { account: stack.account } : undefined;
}

/** CreateBucket in `account` (its region); "already owned by you" is no error, another account's name is. */
export function createBucket(ctx: SimContext, account: AccountState, cluster: string, name: string): void {
  const owner = findBucket(ctx, name);
  if (owner) {
    if (owner.account.accountId === account.accountId) return;
    throw new S3Error('BucketAlreadyExists', `the bucket ${name} belongs to another account`);
  }
  account.buckets = { ...account.buckets, [name]: { name, cluster, createdAt: ctx.now } };
}

/** PutObject by CLM in `account` (the cluster's credentials). */
export function putObject(
  ctx: SimContext,
  account: AccountState,
  cluster: string,
  object: { readonly bucket: string; readonly key: string; readonly body: Uint8Array },
): void {
  const owner = findBucket(ctx, object.bucket);
  if (!owner) throw new S3Error('NoSuchBucket', `the bucket ${object.bucket} does not exist`);
  if (owner.account.accountId !== account.accountId)
    throw new S3Error('AccessDenied', `the bucket ${object.bucket} belongs to account ${owner.account.accountId}`);
  const objects = (owner.account.objects ??= {});
  objects[`${object.bucket}/${object.key}`] = {
    bucket: object.bucket,
    key: object.key,
    cluster,
    body: Buffer.from(object.body).toString('base64'),
    lastModified: ctx.now,
  };
}

/** The object's bytes, if it exists. */
export function objectBytes(owner: BucketOwner, bucket: string, key: string): Uint8Array | undefined {
  const object = owner.account.objects?.[`${bucket}/${key}`];
  return object ? Buffer.from(object.body, 'base64') : undefined;
}
