import type { KubeCluster, PdbInfo } from '../../ports/kube-cluster';
import { KubeApiError, TransientApiError } from '../../shared/errors';
import { resolveKind } from '../kube/kinds';
import { apiReady, kubeFor } from '../engine';
import { accountKey } from '../aws/account';
import { describeEksCluster } from '../aws/eks';
import { matches, parseSelector } from '../../core/kube/label-selector';
import { nodeInfo, nodesWithVolumes, patchNode, serverVersion } from '../kube/nodes';
import { applyObjects } from '../kube/apply-objects';
import { deleteObject } from '../kube/delete-object';
import { annotateObject, listObjects, scaleDeployment } from '../kube/objects';
import { evictPod, pdbObjects, pdbStatus, withDisruption } from '../kube/pdb';
import { beginPodDeletion, podInfo, podKey } from '../kube/pods';
import type { SimContext } from '../sim-context';
import { volumeAttachmentInfos } from '../kube/volume-attachments';
import { workloadReadiness } from '../kube/workload-readiness';
import { instrument } from './instrument';

/** Where a client connects: the API server URL and the CA it trusts (base64 PEM), as the caller's cluster says. */
export interface SimKubeConnection {
  readonly server: string;
  readonly caData?: string;
}

/**
 * KubeCluster over one simulated cluster. Until its API server is up every call but `ready` fails as a refused
 * connection would. A zalando-eks cluster's API server is its EKS endpoint with its EKS CA: a client given another URL
 * reaches nothing (not ready, connection errors), one trusting another CA fails every call as TLS verification would.
 */
export function simKubeCluster(ctx: SimContext, clusterId: string, connection?: SimKubeConnection): KubeCluster {
  const reachable = (): boolean => connectionReaches(ctx, clusterId, connection);
  const kube = () => {
    if (reachable()) return kubeFor(ctx, clusterId);
    throw new TransientApiError(`cluster ${clusterId}: API server is not reachable yet (connection refused)`);
  };
  return instrument<KubeCluster>(ctx, 'kube', clusterId, {
    ready: () => reachable(),
    serverVersion: () => serverVersion(kube()),
    apply: (objects, options) =>
      applyObjects(ctx, kube(), objects, { fieldManager: options.fieldManager, dryRun: options.dryRun ?? false }),
    delete: (ref, options) => deleteObject(ctx, kube(), ref, options),
    list: (kind, options) => listObjects(ctx, kube(), kind, options),
    servesKind: (kind, apiVersion) => servesKind(kube(), kind, apiVersion),
    annotate: (ref, annotations) => annotateObject(ctx, kube(), ref, annotations),
    listNodes() {
      const state = kube();
      const withVolumes = nodesWithVolumes(state);
      return Object.values(state.nodes)
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((node) => nodeInfo(ctx, state, node, withVolumes));
    },
    patchNode: (name, patch) => patchNode(ctx, kube(), name, patch),
    listPods(options = {}) {
      const requirements = parseSelector(options.labelSelector);
      return Object.values(kube().pods)
        .filter(
          (pod) =>
            (!options.nodeName || pod.nodeName === options.nodeName) &&
            (!options.namespace || pod.namespace === options.namespace) &&
            matches(requirements, pod.labels),
        )
        .sort((a, b) => (podKey(a.namespace, a.name) < podKey(b.namespace, b.name) ? -1 : 1))
        .map((pod) => podInfo(ctx, pod));
    },
    evictPod(namespace, name, gracePeriodSeconds) {
      const state = kube();
      return evictPod(ctx, state, state.pods[podKey(namespace, name)], gracePeriodSeconds);
    },
    deletePod(namespace, name, gracePeriodSeconds) {
      const state = kube();
      const pod = state.pods[podKey(namespace, name)];
      if (!pod) return 'not-found';
      withDisruption(ctx, state, [pod], `forced delete of pod ${namespace}/${name}`, () =>
        beginPodDeletion(ctx, state, pod, gracePeriodSeconds),
      );
      return 'deleted';
    },
    listPdbs(namespace) {
      const state = kube();
      return pdbObjects(state, namespace).map((stored): PdbInfo => {
        const { blockedUntil: _blocked, ...info } = pdbStatus(ctx, state, stored);
        return info;
      });
    },
    scaleDeployment: (namespace, name, replicas) => scaleDeployment(ctx, kube(), namespace, name, replicas),
    listVolumeAttachments: (nodeName) => volumeAttachmentInfos(kube(), nodeName),
    workloadReadiness: (ref) => workloadReadiness(kube(), ref),
  });
}

/** Discovery's answer: whether `kind` resolves (built-in kinds and the applied CRDs'). */
function servesKind(state: Parameters<typeof resolveKind>[0], kind: string, apiVersion?: string): boolean {
  try {
    resolveKind(state, kind, apiVersion);
    return true;
  } catch (error) {
    if (error instanceof KubeApiError) return false;
    throw error;
  }
}

/** Whether a client with `connection` reaches the cluster's API server now (see simKubeCluster). */
function connectionReaches(ctx: SimContext, clusterId: string, connection: SimKubeConnection | undefined): boolean {
  const info = ctx.state.clusters[clusterId];
  if (!info?.eks || !connection) return apiReady(ctx, clusterId);
  const account = ctx.state.accounts[accountKey(info.accountId, info.region)];
  const plane = account && describeEksCluster(account, info.name);
  if (!plane || plane.status !== 'ACTIVE' || plane.endpoint !== connection.server) return false;
  if (plane.certificateAuthorityData !== connection.caData)
    throw new KubeApiError(
      `cluster ${clusterId}: Get "${connection.server}/readyz": tls: failed to verify certificate: x509: certificate signed by unknown authority${connection.caData ? '' : ' (no CA given: kube_ca_data, or eks_certificate_authority_data from the EKS creation hook)'}`,
    );
  return true;
}
