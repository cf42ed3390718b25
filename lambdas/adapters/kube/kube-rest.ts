/**
 * Raw JSON requests to an API server over a KubeTransport: kube-server-transport.ts (Node's https with a bearer token
 * and the cluster's CA: the Lambda tasks, and the CLI for plain kubeconfig contexts) or client-node-transport.ts
 * (client-node's fetch and kubeconfig authentication: client certificates, exec plugins).
 *
 * Why not KubernetesObjectApi for apply and the generic verbs: its `patch()` serialises objects of known kinds through
 * the typed models, which silently drops fields the models do not know (measured on 1.4.0: an apps/v1 Deployment lost
 * `spec.newField` and a container's unknown key). A field the cluster knows but client-node's models do not (a newer
 * Kubernetes) would vanish from the apply; with server-side apply that is not just "not set": the field manager gives
 * up ownership and the API server removes it from the live object. So objects go out verbatim, and a field the server
 * does not know fails the apply loudly instead (HTTP 500 "field not declared in schema", classified as KubeApiError).
 */
import { KubeHttpError, toKubeError } from './kube-errors';
import { KubeApiError } from '../../shared/errors';

export interface KubeResponse {
  readonly status: number;
  /** Parsed JSON, or the text when the answer is not JSON. */
  readonly body: unknown;
}

export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  readonly contentType?: string;
}

/** One HTTP exchange with the API server, authenticated: what differs between the ways to connect. */
export interface KubeTransport {
  /** The API server's URL, named when it cannot be reached. */
  readonly server: string;
  /**
   * Send `path` (with `query`, already encoded) and answer the status and body text of any HTTP answer; throw when
   * there is none (network or TLS failure: an error isNetworkError recognises) or credentials cannot be had.
   */
  exchange(request: {
    readonly method: KubeRequest['method'];
    readonly path: string;
    readonly query: URLSearchParams;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  }): Promise<{ readonly status: number; readonly text: string }>;
}

export class KubeRest {
  private readonly transport: KubeTransport;

  constructor(transport: KubeTransport) {
    this.transport = transport;
  }

  /** Any HTTP answer comes back as a KubeResponse; only "no answer" throws (TransientApiError, named by `what`). */
  async send(request: KubeRequest, what = `${request.method} ${request.path}`): Promise<KubeResponse> {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) query.set(key, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = request.contentType ?? 'application/json';
    try {
      const { status, text } = await this.transport.exchange({
        method: request.method,
        path: request.path,
        query,
        headers,
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      });
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON (e.g. "ok" from /readyz)
      }
      return { status, body };
    } catch (error) {
      throw toKubeError(error, what, this.transport.server);
    }
  }

  /** `send`, with non-2xx answers thrown as classified errors named by `what`. */
  async ok(request: KubeRequest, what: string): Promise<KubeResponse> {
    return ensureOk(await this.send(request, what), what);
  }
}

/** The response itself when 2xx; otherwise its classified error, named by `what`. */
export function ensureOk(response: KubeResponse, what: string): KubeResponse {
  if (response.status < 200 || response.status > 299)
    throw toKubeError(new KubeHttpError(response.status, response.body), what);
  return response;
}

const PAGE_SIZE = 500;

/** GET a list, following `continue` tokens, PAGE_SIZE items per request. */
export async function listAll<T>(
  rest: KubeRest,
  path: string,
  query: Readonly<Record<string, string | undefined>>,
  what: string,
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const { body } = await rest.ok(
      { method: 'GET', path, query: { ...query, limit: PAGE_SIZE, continue: token } },
      what,
    );
    const page = body as { items?: T[]; metadata?: { continue?: string } };
    items.push(...(page.items ?? []));
    token = page.metadata?.continue || undefined;
  } while (token);
  return items;
}

/** GET /version's `gitVersion` (`v1.30.5`, vendor suffixes kept). */
export async function serverGitVersion(rest: KubeRest): Promise<string> {
  const { body } = await rest.ok({ method: 'GET', path: '/version' }, 'GET /version');
  const version = (body as { gitVersion?: unknown } | undefined)?.gitVersion;
  if (typeof version !== 'string' || version === '')
    throw new KubeApiError('GET /version: the API server answered without a gitVersion');
  return version;
}
