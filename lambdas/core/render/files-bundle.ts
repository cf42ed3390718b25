import { createHash } from 'node:crypto';
import yaml from 'js-yaml';
import { ConfigError } from '../../shared/errors';
import { isRecord, scalarText, yamlTypeName } from '../config/plain-data';
import { loadYaml } from '../config/yaml-error';

/** One file of a node pool's `files.yaml` (CLM §4.5 `remoteData`). */
export interface RemoteFile {
  readonly path: string;
  /** Base64 content, as written in files.yaml. */
  readonly data: string;
  /** Stored KMS-encrypted as `<path>.enc`. */
  readonly encrypted: boolean;
  readonly permissions: number;
}

/**
 * The files bundle of a node pool. CLM uploads it as a tar.gz under the SHA-512 of the rendered
 * files.yaml; the artefact step does the upload (and the encryption with the KMS key from the main
 * stack's output), rendering only computes the content-addressed location the user data points at.
 */
export interface FilesBundle {
  /** SHA-512 (hex) of the rendered files.yaml. */
  readonly sha512: string;
  /** `s3://<bucket>/<LocalID>/<master|worker>/<sha512>.userdata` → `Values.S3GeneratedFilesPath`. */
  readonly s3Path: string;
  /** Main-stack output holding the KMS key for encrypted files. */
  readonly kmsKeyOutput: 'MasterFilesEncryptionKey' | 'WorkerFilesEncryptionKey';
  /** The key id, when the main stack's outputs are known. */
  readonly kmsKeyId?: string;
  readonly files: readonly RemoteFile[];
}

export const DEFAULT_ARTIFACT_BUCKET = 'clm-artifacts';

export function sha512Hex(text: string): string {
  return createHash('sha512').update(text).digest('hex');
}

export function filesS3Path(bucket: string, localId: string, role: 'master' | 'worker', sha512: string): string {
  return `s3://${bucket}/${localId}/${role}/${sha512}.userdata`;
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
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) fail(`data of ${path} is not base64`);
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
