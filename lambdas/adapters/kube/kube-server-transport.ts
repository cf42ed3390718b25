/**
 * A KubeTransport over Node's own http/https: an API server URL, a bearer token (fixed, or from a source asked per
 * request: EKS tokens, per-cluster secrets) and the cluster's CA. This is how the Lambda tasks connect (token and EKS
 * modes), and the CLI for kubeconfig contexts that hold no more than a token and a CA; it carries no client-node, so
 * a task bundle stays small. Connections are kept alive between requests.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfigError } from '../../shared/errors';
import type { KubeTransport } from './kube-rest';

export interface KubeServerConnection {
  /** e.g. https://kube-1.teapot.example.org */
  readonly server: string;
  readonly token?: string;
  /** A token fetched for every request (cached by the source: EKS tokens, per-cluster secrets); wins over `token`. */
  readonly tokenSource?: () => Promise<string>;
  /** The cluster CA as base64-encoded PEM (kubeconfig's certificate-authority-data). */
  readonly caData?: string;
  /** Required for plain http:// servers (test fakes); never for real clusters. @default false */
  readonly skipTLSVerify?: boolean;
}

/** An HTTP exchange that got no answer (refused, reset, timed out, TLS refused): kube-errors.ts calls it transient. */
export class KubeNetworkError extends Error {
  override name = 'KubeNetworkError';
  readonly code?: string;
  constructor(message: string, options: { cause: unknown; code?: string }) {
    super(message, { cause: options.cause });
    if (options.code) this.code = options.code;
  }
}

/** A request that gets no byte back in this long fails as a network error (and is retried as transient). */
const IDLE_TIMEOUT_MS = 120_000;

/** The server URL must be https, or plain http with skipTLSVerify (test servers only). */
export function checkServerUrl(connection: Pick<KubeServerConnection, 'server' | 'skipTLSVerify'>): void {
  if (!/^https?:\/\//.test(connection.server))
    throw new ConfigError(`API server URL must start with https:// (got "${connection.server}")`);
  if (connection.server.startsWith('http://') && !connection.skipTLSVerify) {
    throw new ConfigError(
      `API server URL ${connection.server} is plain http; that is only allowed with skipTLSVerify (test servers only)`,
    );
  }
}

export function kubeServerTransport(connection: KubeServerConnection): KubeTransport {
  checkServerUrl(connection);
  const base = new URL(connection.server.replace(/\/+$/, ''));
  const plain = base.protocol === 'http:';
  const agent = plain
    ? new HttpAgent({ keepAlive: true })
    : new HttpsAgent({
        keepAlive: true,
        rejectUnauthorized: !connection.skipTLSVerify,
        ...(connection.caData ? { ca: Buffer.from(connection.caData, 'base64') } : {}),
      });
  const send = plain ? httpRequest : httpsRequest;
  const server = base.toString().replace(/\/+$/, '');
  return {
    server,
    async exchange({ method, path, query, headers, body }) {
      const token = connection.tokenSource ? await connection.tokenSource() : connection.token;
      const search = query.toString();
      const url = new URL(`${base.pathname.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`, base);
      const all: Record<string, string> = { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
      if (body !== undefined) all['Content-Length'] = String(Buffer.byteLength(body));
      return new Promise((resolve, reject) => {
        const failed = (error: Error & { code?: string }) =>
          reject(
            new KubeNetworkError(error.message || error.code || 'no answer', {
              cause: error,
              ...(error.code ? { code: error.code } : {}),
            }),
          );
        const req = send(url, { method, headers: all, agent, timeout: IDLE_TIMEOUT_MS }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', failed);
        });
        req.on('timeout', () =>
          req.destroy(Object.assign(new Error(`no answer in ${IDLE_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
        );
        req.on('error', failed);
        req.end(body);
      });
    },
  };
}
