/**
 * Raw JSON requests over client-node's own transport (its fetch library, TLS agent and kubeconfig authentication).
 *
 * Why not KubernetesObjectApi for apply and the generic verbs: its `patch()` serialises objects of known kinds through
 * the typed models, which silently drops fields the models do not know (measured on 1.4.0: an apps/v1 Deployment lost
 * `spec.newField` and a container's unknown key). A field the cluster knows but client-node's models do not (a newer
 * Kubernetes) would vanish from the apply; with server-side apply that is not just "not set": the field manager gives
 * up ownership and the API server removes it from the live object. So objects go out verbatim, and a field the server
 * does not know fails the apply loudly instead (HTTP 500 "field not declared in schema", classified as KubeApiError).
 */
// Deep imports: the package's index also loads every API class and watch/exec/attach helpers (~130 KB in a bundle).
import { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
import { HttpMethod } from '@kubernetes/client-node/dist/gen/http/http.js';
import { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
import type { KubeConfig } from '@kubernetes/client-node';
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

export class KubeRest {
  private readonly kc: KubeConfig;
  private readonly configuration: ReturnType<typeof createConfiguration>;
  /** The API server's URL, named when it cannot be reached. */
  private readonly server: string;

  constructor(kc: KubeConfig) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('KubeRest: the kubeconfig selects no cluster');
    this.kc = kc;
    this.server = cluster.server;
    this.configuration = createConfiguration({ baseServer: new ServerConfiguration(cluster.server, {}) });
  }

  /** Any HTTP answer comes back as a KubeResponse; only "no answer" throws (TransientApiError, named by `what`). */
  async send(request: KubeRequest, what = `${request.method} ${request.path}`): Promise<KubeResponse> {
    const context = this.configuration.baseServer.makeRequestContext(request.path, HttpMethod[request.method]);
    for (const [key, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) context.setQueryParam(key, String(value));
    context.setHeaderParam('Accept', 'application/json');
    if (request.body !== undefined) {
      context.setHeaderParam('Content-Type', request.contentType ?? 'application/json');
      context.setBody(JSON.stringify(request.body));
    }
    try {
      await this.kc.applySecurityAuthentication(context);
      const response = await this.configuration.httpApi.send(context).toPromise();
      const text = await response.body.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON (e.g. "ok" from /readyz)
      }
      return { status: response.httpStatusCode, body };
    } catch (error) {
      throw toKubeError(error, what, this.server);
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
