/**
 * KubeCluster on @kubernetes/client-node 1.4.0.
 *
 * - Typed APIs (CoreV1Api, AppsV1Api, PolicyV1Api) for nodes, pods, evictions, PDBs and the Deployment scale.
 * - Raw JSON requests over client-node's transport (kube-rest.ts) for server-side apply and the by-kind verbs
 *   (delete, list, annotate), with kinds resolved through discovery (kube-discovery.ts).
 *
 * Errors: 5xx, 429 (outside eviction) and network failures are TransientApiError; 401/403 are KubeApiError with a hint
 * about the token; 409 is ConflictError; 404 is `not-found` where the port says so, NotFoundError elsewhere.
 */
import { AppsV1Api, CoreV1Api, PatchStrategy, PolicyV1Api, setHeaderOptions } from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import type {
  ApplyResult,
  DeleteOptions,
  EvictionResult,
  KubeCluster,
  KubeObject,
  NodeInfo,
  NodePatch,
  ObjectRef,
  PdbInfo,
  PodInfo,
} from '../../ports/kube-cluster';
import { KubeApiError, TransientApiError } from '../../shared/errors';
import { applyObject } from './kube-apply';
import { kubeConfigFrom } from './kube-connection';
import type { KubeConnection } from './kube-connection';
import { KubeDiscovery, resourcePath } from './kube-discovery';
import type { ResolvedResource } from './kube-discovery';
import { kubeStatusOf, toKubeError } from './kube-errors';
import { nodePatchBody, toNodeInfo, toPdbInfo, toPodInfo } from './kube-mappers';
import { KubeRest, ensureOk } from './kube-rest';

const PAGE_SIZE = 500;
const CRD_KIND = 'CustomResourceDefinition';

export class ClientNodeKubeCluster implements KubeCluster {
  private readonly rest: KubeRest;
  private readonly discovery: KubeDiscovery;
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly policy: PolicyV1Api;
  /** Set once this instance applied a CRD for real: a kind missing right after may just not be served yet. */
  private appliedCrd = false;

  constructor(connection: KubeConnection | KubeConfig) {
    const kc = 'makeApiClient' in connection ? connection : kubeConfigFrom(connection);
    this.rest = new KubeRest(kc);
    this.discovery = new KubeDiscovery(this.rest);
    this.core = kc.makeApiClient(CoreV1Api);
    this.apps = kc.makeApiClient(AppsV1Api);
    this.policy = kc.makeApiClient(PolicyV1Api);
  }

  async ready(): Promise<boolean> {
    try {
      return (await this.rest.send({ method: 'GET', path: '/readyz' })).status === 200;
    } catch {
      return false;
    }
  }

  async apply(objects: readonly KubeObject[], options: { readonly fieldManager: string; readonly dryRun?: boolean }): Promise<ApplyResult[]> {
    // In a dry run a CRD is never created, so kinds it defines cannot be validated; they are reported as created.
    const definedHere = new Set(objects.filter(isCrd).flatMap(crdKinds));
    const results: ApplyResult[] = [];
    for (const object of objects) {
      const resource = await this.resourceForObject(object, options.dryRun === true && definedHere.has(`${object.apiVersion}/${object.kind}`));
      const ref = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name };
      if (!resource) {
        results.push({ ref: { ...ref, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) }, action: 'created' });
        continue;
      }
      const { namespace, action } = await applyObject(this.rest, resource, object, options);
      results.push({ ref: { ...ref, ...(namespace ? { namespace } : {}) }, action });
      if (isCrd(object) && !options.dryRun) {
        this.appliedCrd = true;
        this.discovery.invalidate();
      }
    }
    return results;
  }

  async delete(ref: ObjectRef, options: DeleteOptions = {}): Promise<'deleted' | 'not-found'> {
    const resource = await this.resolve(ref.kind, ref.apiVersion);
    // A namespaced kind without a namespace addresses no object (CLM ends in "not found" the same way).
    if (resource.namespaced && !ref.namespace) return 'not-found';
    const path = resourcePath(resource, ref.namespace, ref.name);
    const response = await this.rest.send({
      method: 'DELETE',
      path,
      query: { propagationPolicy: options.propagationPolicy, gracePeriodSeconds: options.gracePeriodSeconds },
    });
    if (response.status === 404) return 'not-found';
    ensureOk(response, `delete ${describeRef(ref)}`);
    return 'deleted';
  }

  async list(kind: string, options: { readonly namespace?: string; readonly labelSelector?: string } = {}): Promise<KubeObject[]> {
    const resource = await this.resolve(kind);
    const path = resourcePath(resource, options.namespace);
    const items: KubeObject[] = [];
    let token: string | undefined;
    do {
      const { body } = await this.rest.ok(
        { method: 'GET', path, query: { labelSelector: options.labelSelector, limit: PAGE_SIZE, continue: token } },
        `list ${resource.plural}${options.namespace ? ` in ${options.namespace}` : ''}`,
      );
      const page = body as { items?: KubeObject[]; metadata?: { continue?: string } };
      for (const item of page.items ?? []) items.push({ ...item, apiVersion: resource.apiVersion, kind: resource.kind });
      token = page.metadata?.continue || undefined;
    } while (token);
    return items;
  }

  /** Merge-patches annotations. A missing object is left alone: the deletion that follows reports it. */
  async annotate(ref: ObjectRef, annotations: Readonly<Record<string, string>>): Promise<void> {
    const resource = await this.resolve(ref.kind, ref.apiVersion);
    const response = await this.rest.send({
      method: 'PATCH',
      path: resourcePath(resource, ref.namespace, ref.name),
      body: { metadata: { annotations } },
      contentType: PatchStrategy.MergePatch,
    });
    if (response.status !== 404) ensureOk(response, `annotate ${describeRef(ref)}`);
  }

  async listNodes(): Promise<NodeInfo[]> {
    const nodes = await this.pages('list nodes', (token) => this.core.listNode({ limit: PAGE_SIZE, _continue: token }));
    return nodes.map(toNodeInfo);
  }

  async patchNode(name: string, patch: NodePatch): Promise<void> {
    await this.call(`patch node ${name}`, () =>
      this.core.patchNode({ name, body: nodePatchBody(patch) }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)),
    );
  }

  async listPods(options: { readonly nodeName?: string; readonly namespace?: string; readonly labelSelector?: string } = {}): Promise<PodInfo[]> {
    const filters = { fieldSelector: options.nodeName ? `spec.nodeName=${options.nodeName}` : undefined, labelSelector: options.labelSelector, limit: PAGE_SIZE };
    const namespace = options.namespace;
    const pods = await this.pages(`list pods${options.nodeName ? ` on ${options.nodeName}` : ''}`, (token) =>
      namespace
        ? this.core.listNamespacedPod({ namespace, ...filters, _continue: token })
        : this.core.listPodForAllNamespaces({ ...filters, _continue: token }),
    );
    return pods.map(toPodInfo);
  }

  /**
   * policy/v1 Eviction. 429 is a PDB refusal; a 500 saying "more than one PodDisruptionBudget" is one too (CLM treats
   * it so: the API server cannot decide, and only a human can fix the overlapping PDBs).
   */
  async evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResult> {
    try {
      await this.core.createNamespacedPodEviction({
        name,
        namespace,
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name, namespace },
          ...(gracePeriodSeconds !== undefined ? { deleteOptions: { gracePeriodSeconds } } : {}),
        },
      });
      return 'evicted';
    } catch (error) {
      const status = kubeStatusOf(error);
      if (status?.code === 429) return 'blocked-by-pdb';
      if (status?.code === 404) return 'not-found';
      if (status?.code === 500 && /more than one PodDisruptionBudget/i.test(status.message ?? '')) return 'blocked-by-pdb';
      throw toKubeError(error, `evict pod ${namespace}/${name}`);
    }
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<'deleted' | 'not-found'> {
    try {
      await this.core.deleteNamespacedPod({ name, namespace, ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}) });
      return 'deleted';
    } catch (error) {
      if (kubeStatusOf(error)?.code === 404) return 'not-found';
      throw toKubeError(error, `delete pod ${namespace}/${name}`);
    }
  }

  async listPdbs(namespace?: string): Promise<PdbInfo[]> {
    const pdbs = await this.pages(`list PodDisruptionBudgets${namespace ? ` in ${namespace}` : ''}`, (token) =>
      namespace
        ? this.policy.listNamespacedPodDisruptionBudget({ namespace, limit: PAGE_SIZE, _continue: token })
        : this.policy.listPodDisruptionBudgetForAllNamespaces({ limit: PAGE_SIZE, _continue: token }),
    );
    return pdbs.map(toPdbInfo);
  }

  async scaleDeployment(namespace: string, name: string, replicas: number): Promise<void> {
    await this.call(`scale deployment ${namespace}/${name} to ${replicas}`, () =>
      this.apps.patchNamespacedDeploymentScale({ name, namespace, body: { spec: { replicas } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)),
    );
  }

  /** Resolve a user-written kind; one refresh of the discovery cache before giving up. */
  private async resolve(kind: string, apiVersion?: string): Promise<ResolvedResource> {
    const found = (await this.discovery.resolve(kind, apiVersion)) ?? (this.discovery.invalidate(), await this.discovery.resolve(kind, apiVersion));
    if (found) return found;
    throw new KubeApiError(
      `unknown kind "${kind}"${apiVersion ? ` in ${apiVersion}` : ''}: the API server serves no such Kind, singular or plural name ` +
        `(short names such as "deploy" are not resolved; use Kind, plural or resource.version.group)`,
    );
  }

  private async resourceForObject(object: KubeObject, mayBeUndefined: boolean): Promise<ResolvedResource | undefined> {
    const found =
      (await this.discovery.forObject(object.apiVersion, object.kind)) ??
      (this.discovery.invalidate(), await this.discovery.forObject(object.apiVersion, object.kind));
    if (found || mayBeUndefined) return found;
    const what = `${object.apiVersion} ${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
    if (this.appliedCrd) throw new TransientApiError(`cannot apply ${what}: the kind is not served yet (a CustomResourceDefinition applied just now may not be established)`);
    throw new KubeApiError(`cannot apply ${what}: the API server does not serve kind ${object.kind} in ${object.apiVersion}`);
  }

  private async pages<T>(what: string, fetch: (token: string | undefined) => Promise<{ items: T[]; metadata?: { _continue?: string } }>): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    do {
      const page = await this.call(what, () => fetch(token));
      items.push(...page.items);
      token = page.metadata?._continue || undefined;
    } while (token);
    return items;
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toKubeError(error, what);
    }
  }
}

function isCrd(object: KubeObject): boolean {
  return object.kind === CRD_KIND && object.apiVersion.startsWith('apiextensions.k8s.io/');
}

/** `group/version/Kind` for every version a CRD defines. */
function crdKinds(object: KubeObject): string[] {
  const spec = (object.spec ?? {}) as { group?: string; names?: { kind?: string }; versions?: { name?: string }[] };
  if (!spec.group || !spec.names?.kind) return [];
  return (spec.versions ?? []).map((v) => `${spec.group}/${v.name}/${spec.names?.kind}`);
}

function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}
