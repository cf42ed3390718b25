import { awsAccountId, type Cluster } from '../../core/model/cluster';
import { packFilesBundle } from '../../core/nodes/files-archive';
import { clmBucketName, type FilesBundle } from '../../core/render/files-bundle';
import type { NodeFilesStore } from '../../ports/node-files';

/**
 * Pack, encrypt and upload files bundles before the stacks that boot from them are deployed (CLM §6.4): each as a
 * tar.gz, its `encrypted: true` files KMS-encrypted with the bundle's key, into the cluster account's bucket with the
 * cluster account's credentials (the NodeFilesStore of the cluster). CLM's own bucket is created when missing; a
 * bucket the cluster names (`node_files_bucket`) must exist. Every call uploads again, as CLM does: a bundle's key is
 * the hash of its rendered files.yaml, so the object changes only in its ciphertexts, and a replaced KMS key takes
 * effect. Bundles with the same address (pools of one profile with equal files) are uploaded once. Returns the
 * `s3://` paths written.
 */
export async function uploadFilesBundles(
  store: NodeFilesStore,
  cluster: Pick<Cluster, 'id' | 'infrastructureAccount' | 'region'>,
  bundles: readonly FilesBundle[],
): Promise<string[]> {
  const clmBucket = clmBucketName(awsAccountId(cluster.infrastructureAccount), cluster.region);
  const written: string[] = [];
  for (const bundle of bundles) {
    if (written.includes(bundle.s3Path)) continue;
    const body = await packFilesBundle(bundle, (keyId, plaintext) => store.encrypt(keyId, plaintext), {
      clusterId: cluster.id,
    });
    await store.put({ bucket: bundle.bucket, key: bundle.key, body, createBucket: bundle.bucket === clmBucket });
    written.push(bundle.s3Path);
  }
  return written;
}
