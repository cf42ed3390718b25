/**
 * EKS bearer tokens, made as `aws eks get-token` (and aws-iam-authenticator) make them: a presigned STS
 * GetCallerIdentity request whose signed headers include `x-k8s-aws-id: <cluster name>`, as
 * `k8s-aws-v1.` + base64url (no padding) of the presigned URL. The API server's authenticator replays the request
 * to STS and maps the identity it gets back (an access entry or aws-auth mapping of the role).
 *
 * Nothing goes over the network here: the request is signed with the STS client's credentials and region (the
 * role assumed in the cluster's account), using the client's own SigV4 signer. EKS accepts a token for 15 minutes
 * from its signing time; a source made by `eksTokenSource` signs a new one after REFRESH_AFTER_MS.
 */
import type { STSClient } from '@aws-sdk/client-sts';
import { ConfigError } from '../../shared/errors';
import { refreshingValue } from './refreshing-value';

export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.';
export const CLUSTER_ID_HEADER = 'x-k8s-aws-id';
/** As aws-iam-authenticator: the presigned URL itself is valid for 60 s; EKS applies its own 15 minutes. */
const PRESIGN_EXPIRES_SECONDS = 60;
/** EKS accepts a token 15 minutes after signing; a new one is signed well before. */
export const REFRESH_AFTER_MS = 10 * 60_000;

interface Presigner {
  presign(
    request: {
      method: string;
      protocol: string;
      hostname: string;
      port?: number;
      path: string;
      query: Record<string, string>;
      headers: Record<string, string>;
    },
    options: { expiresIn: number; signingDate: Date },
  ): Promise<{ query: Record<string, string | string[] | null> }>;
}

interface StsConfig {
  readonly region: () => Promise<string>;
  readonly signer: () => Promise<Presigner>;
  readonly endpoint?: () => Promise<{ protocol: string; hostname: string; port?: number; path: string }>;
  readonly endpointProvider: (params: Record<string, unknown>) => { url: URL };
}

/** STS's regional endpoint for the client's region, or the client's own endpoint when one is set (tests, moto). */
async function stsEndpoint(config: StsConfig, region: string): Promise<URL> {
  if (config.endpoint) {
    const e = await config.endpoint();
    return new URL(`${e.protocol}//${e.hostname}${e.port ? `:${e.port}` : ''}${e.path}`);
  }
  return config.endpointProvider({ Region: region, UseFIPS: false, UseDualStack: false, UseGlobalEndpoint: false }).url;
}

/** A token for `clusterName`, signed at `signingDate` with the credentials of `sts`. */
export async function eksToken(sts: STSClient, clusterName: string, signingDate = new Date()): Promise<string> {
  const config = sts.config as unknown as StsConfig;
  let url: URL;
  try {
    const region = await config.region();
    url = await stsEndpoint(config, region);
    const signed = await (
      await config.signer()
    ).presign(
      {
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
        headers: { host: url.host, [CLUSTER_ID_HEADER]: clusterName },
      },
      { expiresIn: PRESIGN_EXPIRES_SECONDS, signingDate },
    );
    for (const [key, value] of Object.entries(signed.query))
      if (typeof value === 'string') url.searchParams.set(key, value);
  } catch (error) {
    // Credential errors name the role and account, never a key: pass the message on, not the request.
    throw new ConfigError(
      `cannot make an EKS token for cluster ${clusterName}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return EKS_TOKEN_PREFIX + Buffer.from(url.toString(), 'utf8').toString('base64url');
}

/** Tokens for one cluster: the same token until REFRESH_AFTER_MS after it was signed, then a new one. */
export function eksTokenSource(
  sts: STSClient,
  clusterName: string,
  now: () => number = Date.now,
): () => Promise<string> {
  return refreshingValue((at) => eksToken(sts, clusterName, new Date(at)), REFRESH_AFTER_MS, now);
}
