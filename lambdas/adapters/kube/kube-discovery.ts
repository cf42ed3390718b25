/**
 * Resolves the `kind` strings of deletions and lists (CLM §5.1) through API discovery, cached per instance:
 * Kind, singular or plural in any case (`Deployment`, `deployment`, `deployments`), or `resource.version.group`
 * (`deployments.v1.apps`). Short names (`deploy`) are deliberately not resolved, as in CLM.
 *
 * Discovery is lazy: `/api/v1` first, then the `/apis` group list, then group versions in the server's priority order
 * (preferred versions before the others), stopping at the first match. A manifest's apiVersion fetches only its own
 * group version.
 */
import { ensureOk } from './kube-rest';
import type { KubeRest } from './kube-rest';

export interface ResolvedResource {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** `v1` or `apps/v1`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The URL segment: `deployments`. */
  readonly plural: string;
  readonly namespaced: boolean;
}

interface ApiResource {
  readonly name: string;
  readonly singularName?: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

interface GroupList {
  readonly groups?: readonly {
    readonly name: string;
    readonly versions?: readonly { readonly groupVersion: string; readonly version: string }[];
    readonly preferredVersion?: { readonly groupVersion: string };
  }[];
}

const VERSION = /^v\d+(?:(?:alpha|beta)\d+)?$/;

export class KubeDiscovery {
  private readonly rest: KubeRest;
  private order?: Promise<string[]>;
  private readonly lists = new Map<string, Promise<ApiResource[]>>();

  constructor(rest: KubeRest) {
    this.rest = rest;
  }

  /** Forget everything (after a CRD was applied, or when a kind is missing). */
  invalidate(): void {
    this.order = undefined;
    this.lists.clear();
  }

  /** The resource of a manifest: its apiVersion's group version, exact Kind. */
  async forObject(apiVersion: string, kind: string): Promise<ResolvedResource | undefined> {
    return this.find([apiVersion], (r) => r.kind === kind);
  }

  /** Resolve a user-written kind, optionally within one apiVersion. */
  /** Whether `kind` resolves, after one refresh of the cache when it does not at first. */
  async serves(kind: string, apiVersion?: string): Promise<boolean> {
    if (await this.resolve(kind, apiVersion)) return true;
    this.invalidate();
    return (await this.resolve(kind, apiVersion)) !== undefined;
  }

  async resolve(kind: string, apiVersion?: string): Promise<ResolvedResource | undefined> {
    if (apiVersion) return this.find([apiVersion], matcher(kind));
    const parts = kind.split('.');
    if (parts.length >= 3 && VERSION.test(parts[1])) {
      const [resource, version, ...group] = parts;
      const wanted = resource.toLowerCase();
      return this.find([`${group.join('.')}/${version}`], (r) => r.name.toLowerCase() === wanted);
    }
    return this.find(await this.groupVersions(), matcher(kind));
  }

  private async find(
    groupVersions: readonly string[],
    match: (r: ApiResource) => boolean,
  ): Promise<ResolvedResource | undefined> {
    for (const groupVersion of groupVersions) {
      const found = (await this.resources(groupVersion)).find(match);
      if (found) {
        const [group, version] = groupVersion.includes('/') ? groupVersion.split('/') : ['', groupVersion];
        return {
          group,
          version,
          apiVersion: groupVersion,
          kind: found.kind,
          plural: found.name,
          namespaced: found.namespaced,
        };
      }
    }
    return undefined;
  }

  private groupVersions(): Promise<string[]> {
    this.order ??= (async () => {
      const { body } = await this.rest.ok({ method: 'GET', path: '/apis' }, 'API discovery GET /apis');
      const groups = (body as GroupList).groups ?? [];
      const preferred = groups.flatMap((g) => (g.preferredVersion ? [g.preferredVersion.groupVersion] : []));
      const others = groups
        .flatMap((g) => (g.versions ?? []).map((v) => v.groupVersion))
        .filter((gv) => !preferred.includes(gv));
      return ['v1', ...preferred, ...others];
    })().catch((error: unknown) => {
      this.order = undefined;
      throw error;
    });
    return this.order;
  }

  /** Resources of one group version, without subresources; an unknown or unavailable group version has none. */
  private resources(groupVersion: string): Promise<ApiResource[]> {
    let list = this.lists.get(groupVersion);
    if (!list) {
      const path = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
      list = this.rest.send({ method: 'GET', path }, `API discovery GET ${path}`).then((response) => {
        // 404: no such group version; 503: an aggregated API that is down (kubectl skips both too).
        if (response.status === 404 || response.status === 503) return [];
        ensureOk(response, `API discovery GET ${path}`);
        return ((response.body as { resources?: ApiResource[] }).resources ?? []).filter((r) => !r.name.includes('/'));
      });
      list.catch(() => this.lists.delete(groupVersion));
      this.lists.set(groupVersion, list);
    }
    return list;
  }
}

function matcher(kind: string): (r: ApiResource) => boolean {
  const wanted = kind.toLowerCase();
  return (r) =>
    r.kind.toLowerCase() === wanted ||
    r.name.toLowerCase() === wanted ||
    (r.singularName || r.kind).toLowerCase() === wanted;
}

/** `/api/v1/namespaces/ns/pods/name`, `/apis/apps/v1/deployments` ... */
export function resourcePath(resource: ResolvedResource, namespace?: string, name?: string): string {
  const base = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
  const scope = resource.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${resource.plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}
