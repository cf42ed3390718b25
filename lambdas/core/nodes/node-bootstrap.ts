import { gunzipSync } from 'node:zlib';
import { ENCRYPTED_SUFFIX, unpackFilesBundle } from './files-archive';

/**
 * What a CLM node does before its kubelet can start (kubernetes-on-aws's bootstrap, CLM §4.5/§6.4): download the files
 * bundle its user data names (`S3_CERTS_BUCKET=s3://…/<sha512>.userdata`) with its instance profile's role, unpack the
 * tar.gz, and KMS-decrypt every `.enc` file. One check for every tier that boots nodes — the simulator, the
 * integration harness on moto, the deployed tier — each giving how its node fetches and decrypts as its role
 * (`BootstrapEnvironment`). A node whose user data names no files bundle has nothing to fetch (an image that brings
 * its files along) and boots.
 */

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** How a node fetches and decrypts as its instance profile's role, in a tier that awaits its cloud (moto, MiniStack). */
export interface BootstrapEnvironment {
  /** S3 GetObject as the node's role: the bytes, or why not (`NoSuchBucket`, `NoSuchKey`, `AccessDenied: …`). */
  fetch(bucket: string, key: string): Promise<Outcome<Uint8Array>>;
  /** KMS Decrypt of a ciphertext blob as the node's role (the blob names its key), or why not. */
  decrypt(ciphertext: Uint8Array): Promise<Outcome<Uint8Array>>;
}

/** The same, answered at once (the simulator, whose world changes only between calls). */
export interface SyncBootstrapEnvironment {
  fetch(bucket: string, key: string): Outcome<Uint8Array>;
  decrypt(ciphertext: Uint8Array): Outcome<Uint8Array>;
}

export interface BundleLocation {
  readonly bucket: string;
  readonly key: string;
}

export type BootResult =
  | { readonly ok: true; readonly bundles: readonly string[]; readonly files: number; readonly decrypted: number }
  | { readonly ok: false; readonly reason: string };

/** The `NotReady` condition reason a node gets when its bootstrap failed. */
export const BOOTSTRAP_FAILED_REASON = 'FilesBundleUnavailable';

const BUNDLE_URL = /s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/([^\s"'`]+?\.userdata)(?=$|[\s"'`])/g;

/** The files bundles (CLM's content-addressed `…/<sha512>.userdata` objects) user data names, each once, in order. */
export function filesBundles(userData: string): BundleLocation[] {
  const seen = new Set<string>();
  const found: BundleLocation[] = [];
  for (const match of userData.matchAll(BUNDLE_URL)) {
    const url = `${match[1]}/${match[2]}`;
    if (seen.has(url)) continue;
    seen.add(url);
    found.push({ bucket: match[1]!, key: match[2]! });
  }
  return found;
}

/**
 * User data as EC2 hands it over: a launch template's base64 (gzipped, as CLM encodes ASG pools, or not), or a
 * Karpenter EC2NodeClass's raw text.
 */
export function userDataText(userData: string, encoding: 'base64' | 'raw' = 'base64'): string {
  if (encoding === 'raw') return userData;
  let bytes: Buffer = Buffer.from(userData, 'base64');
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      return '';
    }
  }
  return bytes.toString('utf8');
}

/** What the bootstrap asks of its environment, one request at a time. */
type Request =
  | { readonly kind: 'fetch'; readonly bucket: string; readonly key: string }
  | { readonly kind: 'decrypt'; readonly ciphertext: Uint8Array };

/** The bootstrap as a sequence of requests, so one procedure serves the synchronous and the awaiting drivers. */
function* bootstrapSteps(bundles: readonly BundleLocation[]): Generator<Request, BootResult, Outcome<Uint8Array>> {
  let files = 0;
  let decrypted = 0;
  for (const { bucket, key } of bundles) {
    const where = `files bundle s3://${bucket}/${key}`;
    const fetched = yield { kind: 'fetch', bucket, key };
    if (!fetched.ok) return { ok: false, reason: `${where}: ${fetched.reason}` };
    let entries;
    try {
      entries = unpackFilesBundle(fetched.value);
    } catch (error) {
      return { ok: false, reason: `${where}: ${(error as Error).message}` };
    }
    for (const entry of entries) {
      files += 1;
      if (!entry.path.endsWith(ENCRYPTED_SUFFIX)) continue;
      const plain = yield { kind: 'decrypt', ciphertext: entry.content };
      if (!plain.ok) return { ok: false, reason: `${where}: cannot decrypt ${entry.path}: ${plain.reason}` };
      decrypted += 1;
    }
  }
  return { ok: true, bundles: bundles.map((b) => `s3://${b.bucket}/${b.key}`), files, decrypted };
}

/**
 * Run the bootstrap: every bundle the user data names (`filesBundles(userDataText(…))`) must download, unpack and
 * decrypt.
 */
export async function bootstrapNode(
  bundles: readonly BundleLocation[],
  env: BootstrapEnvironment,
): Promise<BootResult> {
  const steps = bootstrapSteps(bundles);
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    const request = step.value;
    step = steps.next(
      request.kind === 'fetch' ? await env.fetch(request.bucket, request.key) : await env.decrypt(request.ciphertext),
    );
  }
}

/** The same in a world that answers at once. */
export function bootstrapNodeSync(bundles: readonly BundleLocation[], env: SyncBootstrapEnvironment): BootResult {
  const steps = bootstrapSteps(bundles);
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    const request = step.value;
    step = steps.next(
      request.kind === 'fetch' ? env.fetch(request.bucket, request.key) : env.decrypt(request.ciphertext),
    );
  }
}
