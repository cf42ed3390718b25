/**
 * Turns client-node errors (ApiException with `.code` and a Status `.body`, node-fetch network errors) and raw
 * non-2xx answers into the named errors of shared/errors.ts. `what` names the call and its object and leads the message.
 */
import { ClmError, ConflictError, KubeApiError, NotFoundError, TransientApiError } from '../../shared/errors';
import { hostAndPort } from '../../shared/host-port';

/** What the API server said, from a Status body (JSON text or object). */
export interface KubeStatus {
  readonly code: number;
  readonly reason?: string;
  readonly message?: string;
}

/** A non-2xx answer of a raw request (kube-rest.ts), shaped like client-node's ApiException. */
export class KubeHttpError extends Error {
  override name = 'KubeHttpError';
  readonly code: number;
  readonly body: unknown;
  constructor(code: number, body: unknown) {
    super(`HTTP ${code}`);
    this.code = code;
    this.body = body;
  }
}

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** HTTP status and Status fields of an error, if it carries an HTTP answer. */
export function kubeStatusOf(error: unknown): KubeStatus | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, body } = error as { code?: unknown; body?: unknown };
  if (typeof code !== 'number') return undefined;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = { message: body.slice(0, 300) };
    }
  }
  const status = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    reason?: unknown;
    message?: unknown;
  };
  return {
    code,
    ...(typeof status.reason === 'string' ? { reason: status.reason } : {}),
    ...(typeof status.message === 'string' ? { message: status.message } : {}),
  };
}

/** No HTTP answer at all: refused, reset, timed out, DNS. */
export function isNetworkError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; code?: unknown; errno?: unknown; type?: unknown };
  return (
    e.name === 'FetchError' ||
    e.name === 'KubeNetworkError' ||
    e.name === 'AbortError' ||
    (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) ||
    (typeof e.errno === 'string' && NETWORK_CODES.has(e.errno))
  );
}

/**
 * 500s that are about the request, not the server: server-side apply answers an object that does not fit the schema
 * with HTTP 500 "failed to create typed patch object ... field not declared in schema" (seen on kube-apiserver 1.35).
 * Retrying cannot help.
 */
const PERMANENT_500 = /failed to create typed patch object|field not declared in schema/i;

/** `server`: the API server's URL, named (host and port) when it cannot be reached. */
export function toKubeError(error: unknown, what: string, server?: string): ClmError {
  if (error instanceof ClmError) return error;
  const options = { cause: error };
  const status = kubeStatusOf(error);
  if (!status) {
    if (isNetworkError(error))
      return new TransientApiError(
        `${what}: cannot reach the API server${server ? ` ${hostAndPort(server)}` : ''} (${(error as Error).message || (error as { code?: string }).code})`,
        options,
      );
    return new KubeApiError(`${what}: ${error instanceof Error ? error.message : String(error)}`, options);
  }
  const said = [status.reason, status.message].filter(Boolean).join(': ') || 'no details';
  const detail = `HTTP ${status.code} (${said})`;
  if (status.code === 401)
    return new KubeApiError(
      `${what}: ${detail}; the API server rejected the token: check that it is valid for this cluster and not expired`,
      options,
    );
  if (status.code === 403)
    return new KubeApiError(
      `${what}: ${detail}; the token's user lacks the permission: check its RBAC bindings`,
      options,
    );
  if (status.code === 404) return new NotFoundError(`${what}: ${detail}`, options);
  if (status.code === 409) return new ConflictError(`${what}: ${detail}`, options);
  if (status.code === 500 && PERMANENT_500.test(status.message ?? ''))
    return new KubeApiError(`${what}: ${detail}`, options);
  if (status.code === 429 || status.code >= 500) return new TransientApiError(`${what}: ${detail}`, options);
  return new KubeApiError(`${what}: ${detail}`, options);
}
