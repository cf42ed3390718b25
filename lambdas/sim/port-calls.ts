import type { AccountQuotas } from '../ports/account-quotas';
import type { ArtifactStore } from '../ports/artifact-store';
import type { ClusterLeftovers } from '../ports/cluster-leftovers';
import type { EksClusters } from '../ports/eks-clusters';
import type { KubeCluster } from '../ports/kube-cluster';
import type { NodeFilesStore } from '../ports/node-files';
import type { NodePoolBackend } from '../ports/node-pool-backend';
import type { StackDeployer } from '../ports/stack-deployer';
import type { CloudLookups } from '../ports/template-engine';
import type { ValuesProvider } from '../ports/values-provider';

/** Every method of a port, spelled out (the compiler checks that none is missing and none is made up). */
type Methods<T> = { readonly [K in keyof T]-?: true };

const STACKS = {
  deploy: true,
  describe: true,
  delete: true,
  list: true,
  plan: true,
  validate: true,
  events: true,
  continueUpdateRollback: true,
} satisfies Methods<StackDeployer>;
const POOLS = {
  getPool: true,
  scale: true,
  terminate: true,
  markPreRollSize: true,
  restorePreRollSize: true,
  markForDecommission: true,
  karpenterInstances: true,
  terminateInstances: true,
} satisfies Methods<NodePoolBackend>;
const KUBE = {
  ready: true,
  serverVersion: true,
  apply: true,
  delete: true,
  list: true,
  servesKind: true,
  listVolumeAttachments: true,
  workloadReadiness: true,
  annotate: true,
  listNodes: true,
  patchNode: true,
  listPods: true,
  evictPod: true,
  deletePod: true,
  listPdbs: true,
  scaleDeployment: true,
} satisfies Methods<KubeCluster>;
const LOOKUPS = { amiId: true, instanceType: true } satisfies Methods<CloudLookups>;
const VALUES = { clusterValues: true } satisfies Methods<ValuesProvider>;
// `urlFor` and `locationOf` only build names (no call, never instrumented): a fault on them could never fire.
const LEFTOVERS = { find: true, delete: true } satisfies Methods<ClusterLeftovers>;
const EKS = { describe: true } satisfies Methods<EksClusters>;
const QUOTAS = { vcpuLimit: true, vcpusInUse: true } satisfies Methods<AccountQuotas>;
const NODE_FILES = { encrypt: true, put: true } satisfies Methods<NodeFilesStore>;
const ARTIFACTS = { put: true, get: true, putOnce: true, getBytes: true } satisfies Methods<
  Omit<ArtifactStore, 'urlFor' | 'locationOf'>
>;

/**
 * The calls a scenario fault can name (`on: <port>.<method>`), by port: the methods of the simulated ports, which
 * all go through `instrument` (ports/instrument.ts).
 */
export const PORT_CALLS: Readonly<Record<string, readonly string[]>> = {
  stacks: Object.keys(STACKS),
  pools: Object.keys(POOLS),
  kube: Object.keys(KUBE),
  lookups: Object.keys(LOOKUPS),
  values: Object.keys(VALUES),
  artifacts: Object.keys(ARTIFACTS),
  leftovers: Object.keys(LEFTOVERS),
  eks: Object.keys(EKS),
  quotas: Object.keys(QUOTAS),
  nodeFiles: Object.keys(NODE_FILES),
};
