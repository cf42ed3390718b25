/**
 * KubeCluster as JSON requests to the API server (kube-rest.ts) over a KubeTransport: Node's https with a bearer token
 * and the cluster's CA (kube-server-transport.ts; the Lambda tasks), or client-node's stack for kubeconfig contexts
 * that need it (client-node-kube-cluster.ts). Kinds are resolved through discovery (kube-discovery.ts).
 *
 * Why not client-node's typed APIs (CoreV1Api, AppsV1Api, PolicyV1Api): they pull every generated model into the
 * bundle. The requests are the same ones the typed calls send (same paths, query parameters and patch content types),
 * and reads keep fields the models would not know; only client-node's model types are used (types, erased).
 *
 * Errors: 5xx, 429 (outside eviction) and network failures are TransientApiError; 401/403 are KubeApiError with a hint
 * about the token; 409 is ConflictError; 404 is `not-found` where the port says so, NotFoundError elsewhere.
 */
import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
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
  VolumeAttachmentInfo,
  WorkloadReadiness,
  WorkloadRef,
} from '../../ports/kube-cluster';
import { ConfigError, KubeApiError, TransientApiError } from '../../shared/errors';
import { applyObject, crdKinds, isCrd } from './kube-apply';
import { KubeDiscovery, resourcePath } from './kube-discovery';
import type { ResolvedResource } from './kube-discovery';
import { KubeHttpError, kubeStatusOf, toKubeError } from './kube-errors';
import {
  nodePatchBody,
  toNodeInfo,
  toPdbInfo,
  toPodInfo,
  toVolumeAttachmentInfo,
  toWorkloadReadiness,
  workloadPath,
  type VolumeAttachmentJson,
} from './kube-mappers';
import { KubeRest, ensureOk, listAll, serverGitVersion, type KubeTransport } from './kube-rest';

/** The patch content types (client-node's PatchStrategy values). */
const MERGE_PATCH = 'application/merge-patch+json';
const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

export class RestKubeCluster implements KubeCluster {
  private readonly rest: KubeRest;
  private readonly discovery: KubeDiscovery;
  /** Set once this instance applied a CRD for real: a kind missing right after may just not be served yet. */
  private appliedCrd = false;

  constructor(transport: KubeTransport) {
    this.rest = new KubeRest(transport);
    this.discovery = new KubeDiscovery(this.rest);
  }

  /** Unreachable is "not ready"; credentials that cannot be had (a bad secret, no EKS token) fail loudly. */
  async ready(): Promise<boolean> {
    try {
      return (await this.rest.send({ method: 'GET', path: '/readyz' })).status === 200;
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      return false;
    }
  }

  readonly serverVersion = (): Promise<string> => serverGitVersion(this.rest);

  async apply(
    objects: readonly KubeObject[],
    options: { readonly fieldManager: string; readonly dryRun?: boolean },
  ): Promise<ApplyResult[]> {
    // In a dry run a CRD is never created, so kinds it defines cannot be validated; they are reported as created.
    const definedHere = new Set(objects.filter(isCrd).flatMap(crdKinds));
    const results: ApplyResult[] = [];
    for (const object of objects) {
      const resource = await this.resourceForObject(
        object,
        options.dryRun === true && definedHere.has(`${object.apiVersion}/${object.kind}`),
      );
      const ref = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name };
      if (!resource) {
        results.push({
          ref: { ...ref, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) },
          action: 'created',
        });
        continue;
      }
      const { namespace, action, changes } = await applyObject(this.rest, resource, object, options);
      results.push({ ref: { ...ref, ...(namespace ? { namespace } : {}) }, action, ...(changes ? { changes } : {}) });
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
    const response = await this.rest.send(
      {
        method: 'DELETE',
        path,
        query: { propagationPolicy: options.propagationPolicy, gracePeriodSeconds: options.gracePeriodSeconds },
      },
      `delete ${describeRef(ref)}`,
    );
    if (response.status === 404) return 'not-found';
    ensureOk(response, `delete ${describeRef(ref)}`);
    return 'deleted';
  }

  async list(
    kind: string,
    options: { readonly namespace?: string; readonly labelSelector?: string } = {},
  ): Promise<KubeObject[]> {
    const resource = await this.resolve(kind);
    const items = await listAll<KubeObject>(
      this.rest,
      resourcePath(resource, options.namespace),
      { labelSelector: options.labelSelector },
      `list ${resource.plural}${options.namespace ? ` in ${options.namespace}` : ''}`,
    );
    return items.map((item) => ({ ...item, apiVersion: resource.apiVersion, kind: resource.kind }));
  }

  /** Merge-patches annotations. A missing object is left alone: the deletion that follows reports it. */
  async annotate(ref: ObjectRef, annotations: Readonly<Record<string, string>>): Promise<void> {
    const resource = await this.resolve(ref.kind, ref.apiVersion);
    const response = await this.rest.send(
      {
        method: 'PATCH',
        path: resourcePath(resource, ref.namespace, ref.name),
        body: { metadata: { annotations } },
        contentType: MERGE_PATCH,
      },
      `annotate ${describeRef(ref)}`,
    );
    if (response.status !== 404) ensureOk(response, `annotate ${describeRef(ref)}`);
  }

  async listNodes(): Promise<NodeInfo[]> {
    return (await listAll<V1Node>(this.rest, '/api/v1/nodes', {}, 'list nodes')).map(toNodeInfo);
  }

  async patchNode(name: string, patch: NodePatch): Promise<void> {
    await this.rest.ok(
      {
        method: 'PATCH',
        path: `/api/v1/nodes/${encodeURIComponent(name)}`,
        body: nodePatchBody(patch),
        contentType: STRATEGIC_MERGE_PATCH,
      },
      `patch node ${name}`,
    );
  }

  async listPods(
    options: { readonly nodeName?: string; readonly namespace?: string; readonly labelSelector?: string } = {},
  ): Promise<PodInfo[]> {
    const path = options.namespace
      ? `/api/v1/namespaces/${encodeURIComponent(options.namespace)}/pods`
      : '/api/v1/pods';
    const query = {
      fieldSelector: options.nodeName ? `spec.nodeName=${options.nodeName}` : undefined,
      labelSelector: options.labelSelector,
    };
    return (
      await listAll<V1Pod>(this.rest, path, query, `list pods${options.nodeName ? ` on ${options.nodeName}` : ''}`)
    ).map(toPodInfo);
  }

  /**
   * policy/v1 Eviction. 429 is a PDB refusal; a 500 saying "more than one PodDisruptionBudget" is one too (CLM treats
   * it so: the API server cannot decide, and only a human can fix the overlapping PDBs).
   */
  async evictPod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<EvictionResult> {
    const response = await this.rest.send(
      {
        method: 'POST',
        path: `${podPath(namespace, name)}/eviction`,
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name, namespace },
          ...(gracePeriodSeconds !== undefined ? { deleteOptions: { gracePeriodSeconds } } : {}),
        },
      },
      `evict pod ${namespace}/${name}`,
    );
    if (response.status >= 200 && response.status <= 299) return 'evicted';
    const error = new KubeHttpError(response.status, response.body);
    const status = kubeStatusOf(error);
    if (status?.code === 429) return 'blocked-by-pdb';
    if (status?.code === 404) return 'not-found';
    if (status?.code === 500 && /more than one PodDisruptionBudget/i.test(status.message ?? ''))
      return 'blocked-by-pdb';
    throw toKubeError(error, `evict pod ${namespace}/${name}`);
  }

  async deletePod(namespace: string, name: string, gracePeriodSeconds?: number): Promise<'deleted' | 'not-found'> {
    const response = await this.rest.send(
      { method: 'DELETE', path: podPath(namespace, name), query: { gracePeriodSeconds } },
      `delete pod ${namespace}/${name}`,
    );
    if (response.status === 404) return 'not-found';
    ensureOk(response, `delete pod ${namespace}/${name}`);
    return 'deleted';
  }

  async listPdbs(namespace?: string): Promise<PdbInfo[]> {
    const path = namespace
      ? `/apis/policy/v1/namespaces/${encodeURIComponent(namespace)}/poddisruptionbudgets`
      : '/apis/policy/v1/poddisruptionbudgets';
    return (
      await listAll<V1PodDisruptionBudget>(
        this.rest,
        path,
        {},
        `list PodDisruptionBudgets${namespace ? ` in ${namespace}` : ''}`,
      )
    ).map(toPdbInfo);
  }

  /** Cluster-scoped; the API has no field selector on spec.nodeName, so the list is filtered here. */
  async listVolumeAttachments(nodeName?: string): Promise<VolumeAttachmentInfo[]> {
    const path = '/apis/storage.k8s.io/v1/volumeattachments';
    const items = await listAll<VolumeAttachmentJson>(this.rest, path, {}, 'list VolumeAttachments');
    return items.map(toVolumeAttachmentInfo).filter((va) => nodeName === undefined || va.nodeName === nodeName);
  }

  /** apps/v1 ReplicaSet, StatefulSet or Deployment: spec.replicas and status.readyReplicas; other kinds are not checked. */
  async workloadReadiness(ref: WorkloadRef): Promise<WorkloadReadiness | undefined> {
    const path = workloadPath(ref);
    if (!path) return undefined;
    const what = `get ${ref.kind} ${ref.namespace}/${ref.name}`;
    const response = await this.rest.send({ method: 'GET', path }, what);
    if (response.status === 404) return undefined;
    ensureOk(response, what);
    return toWorkloadReadiness(response.body);
  }

  async scaleDeployment(namespace: string, name: string, replicas: number): Promise<void> {
    await this.rest.ok(
      {
        method: 'PATCH',
        path: `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}/scale`,
        body: { spec: { replicas } },
        contentType: MERGE_PATCH,
      },
      `scale deployment ${namespace}/${name} to ${replicas}`,
    );
  }

  servesKind = (kind: string, apiVersion?: string): Promise<boolean> => this.discovery.serves(kind, apiVersion);

  /** Resolve a user-written kind; one refresh of the discovery cache before giving up. */
  private async resolve(kind: string, apiVersion?: string): Promise<ResolvedResource> {
    const found =
      (await this.discovery.resolve(kind, apiVersion)) ??
      (this.discovery.invalidate(), await this.discovery.resolve(kind, apiVersion));
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
    if (this.appliedCrd)
      throw new TransientApiError(
        `cannot apply ${what}: the kind is not served yet (a CustomResourceDefinition applied just now may not be established)`,
      );
    throw new KubeApiError(
      `cannot apply ${what}: the API server does not serve kind ${object.kind} in ${object.apiVersion}`,
    );
  }
}

function podPath(namespace: string, name: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
}

function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}
