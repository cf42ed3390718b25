import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Cluster Registry API (CLM §2.3) on 127.0.0.1 for tests: in-memory clusters (snake_case documents) and
 * infrastructure accounts, every request recorded, and programmable faults.
 *
 *   const server = await startRegistryServer({ clusters: [doc], accounts: [{ id: 'aws:1…', name: 'foo', owner: 'team/x' }], token: 's3cret' });
 *   server.fail({ method: 'GET', path: '/kubernetes-clusters' }, { kind: 'status', status: 503 }, 2);
 *   … new HttpRegistry({ baseUrl: server.url, token: 's3cret' }) …
 *   await server.close();
 *
 * Routes: GET /kubernetes-clusters, GET|PATCH /kubernetes-clusters/{id}, PUT /kubernetes-clusters/{id}/config-items/{key},
 * GET /infrastructure-accounts[?lifecycle_status=…]. Errors use the API's `{code, message}` body.
 */

export type JsonObject = Record<string, unknown>;

export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string, percent-decoded. */
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

export type Fault =
  /** Answer with this status and an `{code, message}` body (e.g. 503, 500, 401, 404). */
  | { readonly kind: 'status'; readonly status: number; readonly message?: string }
  /** 429 Too Many Requests with a Retry-After header (seconds). */
  | { readonly kind: 'retryAfter'; readonly seconds: number; readonly status?: number }
  /** Accept the request and never answer (until the server closes). */
  | { readonly kind: 'hang' }
  /** 200 with a body that is not JSON. */
  | { readonly kind: 'malformedJson' }
  /** 200 with the normal list plus this item (e.g. a cluster with a bad field). */
  | { readonly kind: 'extraItem'; readonly item: unknown }
  /**
   * A server that echoes what it refused: this status with the request's Authorization header in the body, as an
   * `{code, message}` document, or (`plain`) as text holding the bare credential after the scheme.
   */
  | { readonly kind: 'echoAuthorization'; readonly status: number; readonly plain?: boolean };

export interface FaultMatcher {
  readonly method?: string;
  /** Exact path, or a RegExp tested against it. */
  readonly path?: string | RegExp;
}

export interface RegistryServerOptions {
  readonly clusters?: readonly JsonObject[];
  readonly accounts?: readonly JsonObject[];
  /** When set, requests need `Authorization: Bearer <token>`; others get 401. */
  readonly token?: string;
  /** When set, requests need `Authorization: Basic <user:password>`; others get 401. */
  readonly basic?: { readonly user: string; readonly password: string };
}

export interface RegistryServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Current documents, keyed by cluster id (PATCH and PUT change them). */
  readonly clusters: Map<string, JsonObject>;
  readonly accounts: JsonObject[];
  /** Inject `fault` for the next `times` matching requests (default: every matching request). */
  fail(match: FaultMatcher, fault: Fault, times?: number): void;
  clearFaults(): void;
  close(): Promise<void>;
}

interface ArmedFault {
  readonly match: FaultMatcher;
  readonly fault: Fault;
  remaining: number;
}

export async function startRegistryServer(options: RegistryServerOptions = {}): Promise<RegistryServer> {
  const clusters = new Map<string, JsonObject>((options.clusters ?? []).map((c) => [String(c.id), structuredClone(c)]));
  const accounts = (options.accounts ?? []).map((a) => structuredClone(a));
  const requests: RecordedRequest[] = [];
  let faults: ArmedFault[] = [];

  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const path = decodeURIComponent(url.pathname);
      const body = parseBody(raw);
      requests.push({
        method: req.method ?? 'GET',
        path,
        query: Object.fromEntries(url.searchParams),
        headers: { ...req.headers },
        body,
      });

      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        return send(res, 401, { code: 401, message: 'Unauthorized: missing or invalid bearer token' });
      }
      const basic =
        options.basic && `Basic ${Buffer.from(`${options.basic.user}:${options.basic.password}`).toString('base64')}`;
      if (basic && req.headers.authorization !== basic) {
        return send(res, 401, { code: 401, message: 'Unauthorized: missing or invalid basic credentials' });
      }
      const armed = faults.find((f) => f.remaining > 0 && matches(f.match, req.method ?? 'GET', path));
      if (armed) {
        armed.remaining -= 1;
        const normal = () => route(req.method ?? 'GET', path, url, body);
        if (applyFault(armed.fault, res, normal, req.headers.authorization ?? '')) return undefined;
      }
      const answer = route(req.method ?? 'GET', path, url, body);
      return send(res, answer.status, answer.body);
    });
  });

  function route(method: string, path: string, url: URL, body: unknown): { status: number; body: unknown } {
    if (method === 'GET' && path === '/kubernetes-clusters')
      return { status: 200, body: { items: [...clusters.values()] } };
    if (method === 'GET' && path === '/infrastructure-accounts') {
      const wanted = url.searchParams.get('lifecycle_status');
      return { status: 200, body: { items: accounts.filter((a) => !wanted || a.lifecycle_status === wanted) } };
    }
    const clusterMatch = /^\/kubernetes-clusters\/([^/]+)$/.exec(path);
    if (clusterMatch) {
      const cluster = clusters.get(clusterMatch[1]);
      if (!cluster) return { status: 404, body: { code: 404, message: `Cluster ${clusterMatch[1]} not found` } };
      if (method === 'GET') return { status: 200, body: cluster };
      if (method === 'PATCH') {
        Object.assign(cluster, body as JsonObject);
        return { status: 200, body: cluster };
      }
    }
    const itemMatch = /^\/kubernetes-clusters\/([^/]+)\/config-items\/([^/]+)$/.exec(path);
    if (itemMatch && method === 'PUT') {
      const cluster = clusters.get(itemMatch[1]);
      if (!cluster) return { status: 404, body: { code: 404, message: `Cluster ${itemMatch[1]} not found` } };
      const value = (body as { value?: unknown } | undefined)?.value;
      if (typeof value !== 'string') return { status: 400, body: { code: 400, message: 'value must be a string' } };
      cluster.config_items = { ...(cluster.config_items as JsonObject | undefined), [itemMatch[2]]: value };
      return { status: 200, body: { value } };
    }
    return { status: 404, body: { code: 404, message: `No route for ${method} ${path}` } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clusters,
    accounts,
    fail(match, fault, times = Number.POSITIVE_INFINITY) {
      faults.push({ match, fault, remaining: times });
    },
    clearFaults() {
      faults = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Returns true when the fault answered (or swallowed) the request. */
function applyFault(
  fault: Fault,
  res: ServerResponse,
  normal: () => { status: number; body: unknown },
  authorization: string,
): boolean {
  switch (fault.kind) {
    case 'echoAuthorization':
      if (fault.plain)
        res
          .writeHead(fault.status, { 'content-type': 'text/plain' })
          .end(`denied; credential was ${authorization.replace(/^\S+\s+/, '')}`);
      else
        send(res, fault.status, { code: fault.status, message: `request with Authorization: ${authorization} denied` });
      return true;
    case 'status':
      send(res, fault.status, { code: fault.status, message: fault.message ?? `Injected ${fault.status}` });
      return true;
    case 'retryAfter':
      res.setHeader('retry-after', String(fault.seconds));
      send(res, fault.status ?? 429, { code: fault.status ?? 429, message: 'Too many requests' });
      return true;
    case 'hang':
      return true;
    case 'malformedJson':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"items": [ {"id": "aws:');
      return true;
    case 'extraItem': {
      const answer = normal();
      const items = ((answer.body as { items?: unknown[] }).items ?? []).concat([fault.item]);
      send(res, answer.status, { ...(answer.body as JsonObject), items });
      return true;
    }
  }
}

function matches(match: FaultMatcher, method: string, path: string): boolean {
  if (match.method && match.method !== method) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? match.path === path : match.path.test(path);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
