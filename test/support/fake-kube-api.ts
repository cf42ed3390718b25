/**
 * A small Kubernetes API on node:http, 127.0.0.1 only, for the kube adapter's unit tests. It holds real state
 * (objects, resourceVersions, discovery that grows when a CRD is applied) and records every request so tests can
 * assert methods, paths, content types and query parameters.
 *
 * Served: /readyz, /api, /apis, discovery (fake-kube-discovery.ts) for core/v1, apps/v1, policy/v1,
 * apiextensions.k8s.io/v1 and the CRD group example.org/v1 (Widget); GET/LIST (label selectors as
 * core/kube/label-selector.ts reads them, fieldSelector spec.nodeName, limit/continue), PATCH
 * (apply-patch+yaml, merge-patch+json, strategic-merge-patch+json: all merged the JSON-merge-patch way), DELETE,
 * POST pods/eviction (deletes the pod unless `onEvict` says otherwise), PATCH deployments/scale.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { matches, parseSelector } from '../../lambdas/core/kube/label-selector';
import { BUILTIN_RESOURCES, crdResources, groupList, resourceList } from './fake-kube-discovery';
import type { FakeResource } from './fake-kube-discovery';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly contentType?: string;
  readonly authorization?: string;
  readonly body?: unknown;
}

export interface Injected {
  readonly method?: string;
  readonly path?: string | RegExp;
  readonly status: number;
  readonly body?: unknown;
  times?: number;
}

type Obj = Record<string, any>;

export class FakeKubeApi {
  readonly requests: RecordedRequest[] = [];
  readonly resources: FakeResource[] = [...BUILTIN_RESOURCES];
  readonly injected: Injected[] = [];
  ready = true;
  /** Answer for an eviction; default: delete the pod and answer 201. */
  onEvict?: (namespace: string, name: string) => { status: number; body?: unknown } | undefined;
  private readonly objects = new Map<string, Obj>();
  private revision = 1;
  private server?: Server;
  url = '';

  /** On plain http, or on https with `tls` (a certificate for 127.0.0.1, e.g. test/fixtures/tls). */
  static async start(tls?: { readonly key: string; readonly cert: string }): Promise<FakeKubeApi> {
    const api = new FakeKubeApi();
    const handler = (req: IncomingMessage, res: ServerResponse) => void api.handle(req, res);
    api.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    await new Promise<void>((resolve) => api.server!.listen(0, '127.0.0.1', resolve));
    api.url = `${tls ? 'https' : 'http'}://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    return api;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Store an object as if it already existed (adds uid, resourceVersion, creationTimestamp). */
  seed(object: Obj): Obj {
    const resource = this.resources.find((r) => r.groupVersion === object.apiVersion && r.kind === object.kind);
    if (!resource) throw new Error(`fake-kube-api: unknown kind ${object.apiVersion} ${object.kind}`);
    const stored = this.stamp(structuredClone(object));
    this.objects.set(key(resource, stored.metadata.namespace, stored.metadata.name), stored);
    return stored;
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): Obj | undefined {
    const resource = this.resources.find((r) => r.groupVersion === apiVersion && r.kind === kind);
    return resource ? this.objects.get(key(resource, resource.namespaced ? namespace : undefined, name)) : undefined;
  }

  inject(injected: Injected): void {
    this.injected.push({ times: 1, ...injected });
  }

  /** Requests other than discovery, for asserting the calls an operation made. */
  calls(): RecordedRequest[] {
    return this.requests.filter((r) => r.method !== 'GET' || !/^\/api(\/v1)?$|^\/apis(\/[^/]+\/[^/]+)?$/.test(r.path));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentType: req.headers['content-type'],
      authorization: req.headers.authorization,
      body: text ? JSON.parse(text) : undefined,
    };
    this.requests.push(recorded);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const hit = this.injected.find(
      (i) => (!i.method || i.method === recorded.method) && pathMatches(i.path, recorded.path) && (i.times ?? 0) > 0,
    );
    if (hit) {
      hit.times = (hit.times ?? 1) - 1;
      return reply(hit.status, hit.body ?? statusBody(hit.status, 'Injected', `injected ${hit.status}`));
    }
    try {
      const [status, body] = this.route(recorded);
      reply(status, body);
    } catch (error) {
      reply(500, statusBody(500, 'InternalError', String(error)));
    }
  }

  private route(r: RecordedRequest): [number, unknown] {
    if (r.path === '/readyz') return this.ready ? [200, 'ok'] : [500, '[-]etcd failed'];
    if (r.path === '/api') return [200, { kind: 'APIVersions', versions: ['v1'] }];
    if (r.path === '/apis') return [200, groupList(this.resources)];
    const m = /^\/(?:api\/(v1)|apis\/([^/]+\/[^/]+))(?:\/(.*))?$/.exec(r.path);
    if (!m) return [404, statusBody(404, 'NotFound', 'the server could not find the requested resource')];
    const gv = m[1] ?? m[2];
    const served = this.resources.filter((x) => x.groupVersion === gv);
    if (!m[3]) {
      if (served.length === 0)
        return [404, statusBody(404, 'NotFound', 'the server could not find the requested resource')];
      return [200, resourceList(gv, served)];
    }
    let segments = m[3].split('/').map(decodeURIComponent);
    let namespace: string | undefined;
    if (segments[0] === 'namespaces' && segments.length >= 3) {
      namespace = segments[1];
      segments = segments.slice(2);
    }
    const [plural, name, sub] = segments;
    const resource = served.find((x) => x.plural === plural);
    if (!resource) return [404, statusBody(404, 'NotFound', 'the server could not find the requested resource')];
    if (!name)
      return r.method === 'GET'
        ? [200, this.list(resource, namespace, r.query)]
        : [405, statusBody(405, 'MethodNotAllowed', 'no')];
    const id = key(resource, resource.namespaced ? namespace : undefined, name);
    const existing = this.objects.get(id);
    const missing: [number, unknown] = [404, statusBody(404, 'NotFound', `${plural} "${name}" not found`)];
    if (sub === 'eviction' && r.method === 'POST') return this.evict(namespace ?? '', name, id);
    if (sub === 'scale') {
      if (!existing) return missing;
      existing.spec = { ...existing.spec, replicas: (r.body as Obj).spec.replicas };
      this.bump(existing);
      return [
        200,
        {
          kind: 'Scale',
          apiVersion: 'autoscaling/v1',
          metadata: { name, namespace },
          spec: { replicas: existing.spec.replicas },
        },
      ];
    }
    if (r.method === 'GET') return existing ? [200, existing] : missing;
    if (r.method === 'DELETE') {
      if (!existing) return missing;
      this.objects.delete(id);
      return [200, { kind: 'Status', apiVersion: 'v1', status: 'Success' }];
    }
    if (r.method !== 'PATCH') return [405, statusBody(405, 'MethodNotAllowed', 'no')];
    if (r.contentType === 'application/apply-patch+yaml') return this.apply(resource, id, existing, r);
    if (!existing) return missing;
    const merged = mergePatch(structuredClone(existing), r.body);
    if (JSON.stringify(merged) !== JSON.stringify(existing)) this.bump(merged);
    this.objects.set(id, merged);
    return [200, merged];
  }

  private apply(resource: FakeResource, id: string, existing: Obj | undefined, r: RecordedRequest): [number, unknown] {
    if (!r.query.fieldManager) return [400, statusBody(400, 'BadRequest', 'PATCH /apply requires fieldManager')];
    const dryRun = r.query.dryRun === 'All';
    const body = r.body as Obj;
    if (!existing) {
      const created = this.stamp(structuredClone(body), !dryRun);
      if (!dryRun) {
        this.objects.set(id, created);
        if (resource.kind === 'CustomResourceDefinition') this.resources.push(...crdResources(created));
      }
      return [201, created];
    }
    const merged = mergePatch(structuredClone(existing), body);
    const changed = JSON.stringify(merged) !== JSON.stringify(existing);
    if (changed && !dryRun) {
      this.bump(merged);
      this.objects.set(id, merged);
    }
    return [200, merged];
  }

  private evict(namespace: string, name: string, id: string): [number, unknown] {
    const custom = this.onEvict?.(namespace, name);
    if (custom)
      return [
        custom.status,
        custom.body ??
          statusBody(
            custom.status,
            'TooManyRequests',
            "Cannot evict pod as it would violate the pod's disruption budget.",
          ),
      ];
    if (!this.objects.has(id)) return [404, statusBody(404, 'NotFound', `pods "${name}" not found`)];
    this.objects.delete(id);
    return [201, { kind: 'Status', apiVersion: 'v1', status: 'Success' }];
  }

  private list(resource: FakeResource, namespace: string | undefined, query: Readonly<Record<string, string>>): Obj {
    const all = [...this.objects.entries()]
      .filter(([k]) => k.startsWith(`${resource.groupVersion}|${resource.plural}|`))
      .map(([, o]) => o)
      .filter((o) => !namespace || o.metadata.namespace === namespace)
      .filter((o) => matches(parseSelector(query.labelSelector), o.metadata.labels ?? {}))
      .filter((o) => !query.fieldSelector || query.fieldSelector === `spec.nodeName=${o.spec?.nodeName}`)
      .sort((a, b) =>
        `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`),
      );
    const start = Number(query.continue ?? 0);
    const limit = query.limit ? Number(query.limit) : all.length;
    const next = start + limit < all.length ? String(start + limit) : undefined;
    return {
      kind: `${resource.kind}List`,
      apiVersion: resource.groupVersion,
      metadata: { resourceVersion: String(this.revision), ...(next ? { continue: next } : {}) },
      items: all.slice(start, start + limit),
    };
  }

  private stamp(object: Obj, count = true): Obj {
    object.metadata.uid ??= `uid-${object.metadata.name}-${this.revision}`;
    object.metadata.creationTimestamp ??= '2026-01-01T00:00:00Z';
    object.metadata.resourceVersion = String(count ? ++this.revision : this.revision);
    return object;
  }

  private bump(object: Obj): void {
    object.metadata.resourceVersion = String(++this.revision);
  }
}

function key(resource: FakeResource, namespace: string | undefined, name: string): string {
  return `${resource.groupVersion}|${resource.plural}|${resource.namespaced ? (namespace ?? '') : ''}|${name}`;
}

function pathMatches(pattern: string | RegExp | undefined, path: string): boolean {
  return pattern === undefined || (typeof pattern === 'string' ? path === pattern : pattern.test(path));
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, everything else (arrays too) replaces. */
function mergePatch(target: Obj, patch: unknown): Obj {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch as Obj;
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (
      typeof v === 'object' &&
      !Array.isArray(v) &&
      typeof target[k] === 'object' &&
      target[k] !== null &&
      !Array.isArray(target[k])
    )
      target[k] = mergePatch(target[k], v);
    else target[k] = structuredClone(v);
  }
  return target;
}

export function statusBody(code: number, reason: string, message: string): Obj {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}
