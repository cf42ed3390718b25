import { createHash } from 'node:crypto';
import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { isRecord, scalarText, yamlTypeName } from '../config/plain-data';
import { loadYaml } from '../config/yaml-error';
import { awsAccountId } from '../model/cluster';
import type { Cluster } from '../model/cluster';

/** One file of a node pool's `files.yaml` (CLM §4.5 `remoteData`). */
export interface RemoteFile {
  readonly path: string;
  /** Base64 content, as written in files.yaml. */
  readonly data: string;
  /** Stored KMS-encrypted as `<path>.enc`. */
  readonly encrypted: boolean;
  readonly permissions: number;
}

/** Whose files: a master pool's, a worker pool's (Karpenter pools too) or the etcd stack's (CLM §6.2 step 10). */
export type FilesRole = 'master' | 'worker' | 'etcd';

/**
 * A files bundle (CLM §4.5, §6.4): the rendered `files.yaml`, stored as a tar.gz (files with `encrypted: true`
 * KMS-encrypted as `<path>.enc`) at `s3://<bucket>/<LocalID>/<role>/<sha512 of the rendered files.yaml>.userdata` in the
 * cluster's account. Rendering computes the content address the user data names (`Values.S3GeneratedFilesPath`); the
 * bundle is packed, encrypted and uploaded before the stack that boots from it is deployed (tasks/kit/node-files.ts).
 */
export interface FilesBundle {
  readonly role: FilesRole;
  /** SHA-512 (hex) of the rendered files.yaml. */
  readonly sha512: string;
  /** The bucket in the cluster's account: CLM's `cluster-lifecycle-manager-<account>-<region>` unless configured. */
  readonly bucket: string;
  /** `<LocalID>/<role>/<sha512>.userdata` */
  readonly key: string;
  /** `s3://<bucket>/<key>` → `Values.S3GeneratedFilesPath`. */
  readonly s3Path: string;
  /**
   * Where the KMS key comes from: the main stack's output `MasterFilesEncryptionKey` / `WorkerFilesEncryptionKey`
   * (node pools), or the alias `alias/etcd-cluster` (etcd).
   */
  readonly kmsKeyOutput: string;
  /** The key id, when known (the main stack's outputs, the resolved alias). */
  readonly kmsKeyId?: string;
  readonly files: readonly RemoteFile[];
}

/** The config item naming another bucket (in or reachable from the cluster's account) for a cluster's files bundles. */
export const NODE_FILES_BUCKET_ITEM = 'node_files_bucket';

/** CLM's bucket in each cluster account (§6.2 step 9): created on first use, in the cluster's region. */
export function clmBucketName(accountId: string, region: string): string {
  return `cluster-lifecycle-manager-${accountId}-${region}`;
}

/**
 * The bucket a cluster's files bundles go to: the config item `node_files_bucket`, else CLM's
 * `cluster-lifecycle-manager-<account>-<region>` of the cluster's account. A configured name must be a valid S3 bucket
 * name (ConfigError naming the cluster and the item).
 */
export function nodeFilesBucket(cluster: Pick<Cluster, 'id' | 'infrastructureAccount' | 'region' | 'configItems'>): {
  readonly bucket: string;
  readonly configured: boolean;
} {
  const configured = cluster.configItems[NODE_FILES_BUCKET_ITEM];
  if (configured === undefined || configured === '')
    return { bucket: clmBucketName(awsAccountId(cluster.infrastructureAccount), cluster.region), configured: false };
  if (!isBucketName(configured))
    throw new ConfigError(
      `"${configured}" is not an S3 bucket name (3-63 characters: lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit)`,
      { location: { clusterId: cluster.id, field: `config_items.${NODE_FILES_BUCKET_ITEM}` } },
    );
  return { bucket: configured, configured: true };
}

function isBucketName(name: string): boolean {
  return /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) && !name.includes('..') && !/^\d+\.\d+\.\d+\.\d+$/.test(name);
}

export function sha512Hex(text: string): string {
  return createHash('sha512').update(text).digest('hex');
}

/** `<LocalID>/<role>/<sha512>.userdata`: CLM's object key (`path.Join(LocalID, role, hash)`). */
export function filesKey(localId: string, role: FilesRole, sha512: string): string {
  return `${localId}/${role}/${sha512}.userdata`;
}

/**
 * Parse a rendered files.yaml strictly: `files:` is a list of `{ path, data, encrypted, permissions }`,
 * nothing else. Scalars are read as YAML 1.1 text as CLM's Go decoder does, so `permissions: 0400` is
 * octal (256). Throws ConfigError naming the file and the entry.
 */
export function parseFilesYaml(text: string, file: string): RemoteFile[] {
  const doc = loadYaml(text, file, yaml.FAILSAFE_SCHEMA);
  if (doc === undefined || doc === null) return [];
  if (!isRecord(doc))
    throw new ConfigError(`expected a mapping with "files", found ${yamlTypeName(doc)}`, { location: { file } });
  const unknown = Object.keys(doc).filter((key) => key !== 'files');
  if (unknown.length)
    throw new ConfigError(
      `unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (only "files" is allowed)`,
      { location: { file } },
    );
  const { files } = doc;
  if (files === undefined || files === null) return [];
  if (!Array.isArray(files))
    throw new ConfigError(`files must be a list, found ${yamlTypeName(files)}`, { location: { file, field: 'files' } });
  return files.map((entry, index) => parseEntry(entry, file, `files[${index}]`));
}

const ENTRY_FIELDS = ['path', 'data', 'encrypted', 'permissions'];

function parseEntry(entry: unknown, file: string, field: string): RemoteFile {
  const fail = (message: string): never => {
    throw new ConfigError(message, { location: { file, field } });
  };
  if (!isRecord(entry)) return fail(`expected a mapping, found ${yamlTypeName(entry)}`);
  const unknown = Object.keys(entry).filter((key) => !ENTRY_FIELDS.includes(key));
  if (unknown.length)
    fail(`unknown field ${unknown.map((k) => `"${k}"`).join(', ')} (allowed: ${ENTRY_FIELDS.join(', ')})`);
  const path = scalarText(entry.path);
  if (!path) return fail('path is required');
  const data = scalarText(entry.data ?? '');
  if (data === undefined) return fail('data must be a base64 string');
  if (!isStdBase64(data))
    fail(`data of ${path} is not base64 (standard alphabet, padded; only line breaks may be left in)`);
  const encrypted = parseBool(scalarText(entry.encrypted ?? 'false'));
  if (encrypted === undefined) fail(`encrypted of ${path} must be true or false`);
  const permissions = parseGoInt(scalarText(entry.permissions ?? '0'));
  if (permissions === undefined || permissions < 0 || permissions > 0o7777)
    fail(`permissions of ${path} must be a file mode such as 0644`);
  return { path, data, encrypted: encrypted!, permissions: permissions! };
}

function parseBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (/^(true|True|TRUE|yes|Yes|YES|on|On|ON)$/.test(text)) return true;
  if (/^(false|False|FALSE|no|No|NO|off|Off|OFF|)$/.test(text)) return false;
  return undefined;
}

/** YAML 1.1 integers: `0644` and `0o644` octal, `0x1A4` hex, else decimal. */
function parseGoInt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const t = text.replaceAll('_', '');
  if (/^0o?[0-7]+$/.test(t)) return parseInt(t.replace(/^0o?/, '') || '0', 8);
  if (/^0x[0-9a-fA-F]+$/.test(t)) return parseInt(t.slice(2), 16);
  if (/^[+-]?\d+$/.test(t)) return parseInt(t, 10);
  return undefined;
}

/** Go's `base64.StdEncoding.DecodeString` (CLM's `base64Decode`) accepts this: padded, line breaks ignored. */
export function isStdBase64(text: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text.replace(/[\r\n]/g, ''));
}
