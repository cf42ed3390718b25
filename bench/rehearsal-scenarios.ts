/**
 * The worlds the rehearsal benchmark predicts and then runs (bench/rehearsal.bench.ts): the examples, pools of 6 to
 * 50 nodes with spread pods, StatefulSets with zone-bound volumes, a PDB with maxUnavailable 0 an operator relaxes
 * later, a capacity shortfall, a PDB that blocks for a while, slow boots, long drains, a canary, a surge over the
 * account's vCPU quota.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../lambdas/ports/kube-cluster';
import type { ScenarioInput } from '../lambdas/sim';
import { ROOT } from './simulated-session';

export const ACCOUNT = 'aws:123456789012:eu-central-1';
const SURGE = 3;

/** What the operator does during the real run (never known to the rehearsal). */
export interface OperatorAction {
  /** Seconds after the real run started. */
  readonly afterSeconds: number;
  readonly apply: readonly KubeObject[];
}

export interface RehearsalCase {
  readonly name: string;
  readonly clusterId: string;
  readonly registry: string;
  readonly scenario: ScenarioInput;
  /** Changes the copy of examples/config before the first provision (the workload of the case). */
  readonly prepare?: (dir: string) => void;
  /** During the real run only: evictions a PDB refuses until this many seconds after the run started. */
  readonly blockFor?: { readonly namespace: string; readonly pdb: string; readonly seconds: number };
  readonly operator?: OperatorAction;
  /**
   * An earlier update of the cluster, before the one predicted (a node image change): the operator acts in it as
   * given, and `restore` is applied after it. Its run record is the history the rehearsal learns from.
   */
  readonly history?: { readonly operator: OperatorAction; readonly restore: readonly KubeObject[] };
  /** Changes the node image for the update (default: the worker-default stack's ImageId). */
  readonly changeImage?: (configDir: string, image: string) => void;
  /** Changed with the worker image: the registry (e.g. a smaller instance type). */
  readonly registryChange?: (text: string) => string;
}

const AWS_LIKE = {
  stackCreateSeconds: 600,
  stackUpdateSeconds: 300,
  stackDeleteSeconds: 300,
  instanceBootSeconds: 180,
  nodeReadySeconds: 20,
  instanceTerminateSeconds: 30,
  podStartSeconds: 10,
  podTerminationSeconds: 30,
};

function registry(id: string, workers: number, items: Record<string, string>, type = 'm6i.large'): string {
  const localId = id.split(':').pop()!;
  return `clusters:
  - id: ${id}
    alias: ${localId}
    local_id: ${localId}
    api_server_url: https://${localId}.test.example.org
    channel: main
    environment: test
    criticality_level: 1
    infrastructure_account: aws:123456789012
    lifecycle_status: ready
    provider: zalando-aws
    region: eu-central-1
    config_items: ${JSON.stringify({ team: 'platform', update_max_surge: String(SURGE), update_canary: 'false', ...items })}
    node_pools:
      - { name: master-default, profile: master-default, instance_types: [m6i.large], discount_strategy: none, min_size: 1, max_size: 1 }
      - { name: workers, profile: worker-default, instance_types: [${type}], discount_strategy: none, min_size: ${workers}, max_size: ${workers + SURGE} }
    status: {}
`;
}

/** Only the namespaces of the examples' manifests, plus `workload`: what there is to drain. */
function bare(workload: string): (dir: string) => void {
  return (dir) => {
    for (const component of [
      '05-backup-policies',
      '10-coredns',
      '20-web',
      '30-database',
      '40-node-exporter',
      '60-burst',
    ])
      rmSync(join(dir, 'cluster/manifests', component), { recursive: true, force: true });
    writeFileSync(join(dir, 'cluster/manifests/deletions.yaml'), 'pre_apply: []\npost_apply: []\n');
    mkdirSync(join(dir, 'cluster/manifests/70-bench'), { recursive: true });
    writeFileSync(join(dir, 'cluster/manifests/70-bench/workload.yaml'), workload);
  };
}

function deployment(
  name: string,
  replicas: number,
  extra: { cpu?: string; memory?: string; grace?: number } = {},
): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: default }
spec:
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
${extra.grace !== undefined ? `      terminationGracePeriodSeconds: ${extra.grace}\n` : ''}      containers:
        - name: ${name}
          image: nginx
          resources: { requests: { cpu: ${extra.cpu ?? '100m'}, memory: ${extra.memory ?? '64Mi'} } }
`;
}

function pdb(name: string, spec: string): string {
  return `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: { name: ${name}, namespace: default }
spec:
  ${spec}
  selector: { matchLabels: { app: ${name} } }
`;
}

function statefulSet(name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: ${name}, namespace: default }
spec:
  serviceName: ${name}
  replicas: ${replicas}
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: ${name}
          image: postgres
          resources: { requests: { cpu: 250m, memory: 512Mi } }
  volumeClaimTemplates:
    - metadata: { name: data }
      spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`;
}

const docs = (...parts: string[]): string => parts.join('---\n');

/** The `pay` PDB as an operator applies it. */
function payPdb(maxUnavailable: number): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'pay', namespace: 'default' },
    spec: { maxUnavailable, selector: { matchLabels: { app: 'pay' } } },
  };
}

/** A new node image for every pool (config-defaults' ami_id): Karpenter's EC2NodeClass too. */
function everyPoolsImage(configDir: string, image: string): void {
  const file = join(configDir, 'cluster/config-defaults.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('ami-0a1b2c3d4e5f60718', image));
}

function spread(
  name: string,
  workers: number,
  items: Record<string, string>,
  workload: string,
  extra: Partial<RehearsalCase> = {},
): RehearsalCase {
  const id = `${ACCOUNT}:kube-rh-${name}`;
  return {
    name,
    clusterId: id,
    registry: registry(id, workers, items),
    scenario: { seed: 11, timings: AWS_LIKE },
    prepare: bare(workload),
    ...extra,
  };
}

export function rehearsalCases(): RehearsalCase[] {
  const examples = readFileSync(join(ROOT, 'examples/clusters.yaml'), 'utf8');
  return [
    { name: 'examples kube-test', clusterId: `${ACCOUNT}:kube-test`, registry: examples, scenario: {} },
    { name: 'examples kube-staging', clusterId: `${ACCOUNT}:kube-staging`, registry: examples, scenario: {} },
    spread('spread-10', 10, {}, docs(deployment('web', 10), pdb('web', 'maxUnavailable: 3'))),
    spread('spread-50', 50, {}, docs(deployment('web', 50), pdb('web', 'maxUnavailable: 3'))),
    spread(
      'statefulsets',
      6,
      {},
      docs(deployment('web', 6), pdb('web', 'maxUnavailable: 2'), statefulSet('db', 3), pdb('db', 'maxUnavailable: 1')),
    ),
    // The operator relaxed the PDB 20 minutes into the previous update and put it back after; this time 25 minutes.
    spread(
      'pdb-relaxed',
      4,
      { drain_grace_period: '30m' },
      docs(deployment('pay', 2), pdb('pay', 'maxUnavailable: 0')),
      {
        history: { operator: { afterSeconds: 1200, apply: [payPdb(1)] }, restore: [payPdb(0)] },
        operator: { afterSeconds: 1500, apply: [payPdb(1)] },
      },
    ),
    // The new nodes are smaller (t3.medium, 4 GiB): the pods asking 5 GiB find no room once their node drains.
    spread('capacity-shortfall', 4, {}, docs(deployment('web', 4), deployment('big', 2, { memory: '5Gi' })), {
      registryChange: (text) =>
        text.replace(
          'instance_types: [m6i.large], discount_strategy: none, min_size: 4',
          'instance_types: [t3.medium], discount_strategy: none, min_size: 4',
        ),
    }),
    spread('pdb-blocks-a-while', 6, {}, docs(deployment('web', 6), pdb('web', 'maxUnavailable: 1')), {
      blockFor: { namespace: 'default', pdb: 'web', seconds: 800 },
    }),
    spread('slow-boot', 6, {}, docs(deployment('web', 6)), {
      scenario: { seed: 12, timings: { ...AWS_LIKE, instanceBootSeconds: 420 } },
    }),
    spread('long-drain', 6, {}, docs(deployment('web', 6, { grace: 300 }), pdb('web', 'maxUnavailable: 3'))),
    spread('canary', 6, { update_canary: 'true' }, docs(deployment('web', 6), pdb('web', 'maxUnavailable: 2'))),
    {
      name: 'karpenter kube-burst',
      clusterId: `${ACCOUNT}:kube-burst`,
      registry: readFileSync(join(ROOT, 'examples/karpenter-clusters.yaml'), 'utf8'),
      scenario: {},
      changeImage: everyPoolsImage,
    },
    // The account's standard vCPU quota allows exactly what the cluster runs (a master and 4 workers, m6i.large: 10
    // vCPUs): the surge is refused, in the twin as in the real run.
    spread('vcpu-quota', 4, {}, docs(deployment('web', 4), pdb('web', 'maxUnavailable: 1')), {
      scenario: { seed: 11, timings: AWS_LIKE, quotas: { onDemandVcpus: { 'L-1216C47A': 10 } } },
    }),
  ];
}
