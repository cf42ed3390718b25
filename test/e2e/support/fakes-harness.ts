// The cluster-update harness over the stateful in-memory fakes (cluster-update-fakes, lambda-deadline): a tiny
// config repository, CloudFormation that completes after two polls, an Auto Scaling backend, and a Kubernetes API
// with a PDB-protected workload.
import {
  runClusterUpdate,
  type ClusterUpdateRunOptions,
  type ExecutionResult,
} from '../../../lambdas/runtime/local/run-cluster-update';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import { StaticValuesProvider } from '../../../lambdas/adapters/values/static-values-provider';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import type { ClusterPorts, Ports } from '../../../lambdas/ports/ports';
import type { CloudLookups } from '../../../lambdas/ports/template-engine';
import { fakeEnv, testCluster, testPool, type FakeEnv } from '../../support/fakes';

const ZONES = ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'];
export const WORKER_STACK = [
  'AWSTemplateFormatVersion: "2010-09-09"',
  'Resources:',
  '  LaunchTemplate:',
  '    Type: AWS::EC2::LaunchTemplate',
  '    Properties:',
  '      LaunchTemplateData: {ImageId: ami-1, InstanceType: "{{NodePool.InstanceType}}", UserData: "{{Values.UserData}}"}',
  '  AutoScalingGroup:',
  '    Type: AWS::AutoScaling::AutoScalingGroup',
  '    Properties:',
  '      LaunchTemplate: {LaunchTemplateId: !Ref LaunchTemplate, Version: !GetAtt LaunchTemplate.LatestVersionNumber}',
  '      MinSize: "{{NodePool.MinSize}}"',
  '      MaxSize: "{{NodePool.MaxSize}}"',
  '',
].join('\n');

/** A complete, minimal config repository in CLM's layout. */
export function tinyConfig(): Record<string, string> {
  const profile = (name: string, stack: string): Record<string, string> => ({
    [`cluster/node-pools/${name}/files.yaml`]:
      'files:\n  - path: /etc/pool\n    data: {{base64 NodePool.Name}}\n    permissions: 0644\n',
    [`cluster/node-pools/${name}/userdata.yaml`]: '#cloud-config\npool: {{NodePool.Name}}\n',
    [`cluster/node-pools/${name}/stack.yaml`]: stack,
  });
  return {
    'cluster/cluster.yaml': 'Resources:\n  Topic: {Type: AWS::SNS::Topic}\nOutputs:\n  TopicArn: {Value: !Ref Topic}\n',
    'cluster/config-defaults.yaml': 'drain_grace_period: 10m\n',
    ...profile('master-default', WORKER_STACK.replace('ami-1', 'ami-master')),
    ...profile('worker-default', WORKER_STACK),
    'cluster/manifests/01-base/namespace.yaml':
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: base-{{Cluster.Environment}}\n',
    'cluster/manifests/02-config/configmap.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: base-{{Cluster.Environment}}\ndata:\n  cluster: {{Cluster.LocalID}}\n',
  };
}

const noLookups = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('this config makes no cloud lookups');
    },
  },
) as CloudLookups;

export interface Harness {
  readonly env: FakeEnv;
  readonly cluster: Cluster;
  readonly ports: Ports;
  run(executionId?: string): Promise<ExecutionResult>;
}

/** One cluster (master pool of 1, workers of 3 with a 3-replica Deployment guarded by minAvailable 2). */
export function harness(extra: Pick<ClusterUpdateRunOptions, 'taskContext'> = {}): Harness {
  const cluster = testCluster({
    nodePools: [
      testPool({ name: 'master', profile: 'master-default', minSize: 1, maxSize: 1 }),
      testPool({ name: 'workers', profile: 'worker-default', minSize: 3, maxSize: 6 }),
    ],
  });
  const env = fakeEnv({ clusters: [cluster], bootMs: 60_000 });
  Object.assign(env.source.files, tinyConfig());
  env.pools.addPool('master', 1, ZONES);
  env.pools.addPool('workers', 3, ZONES);
  const workerNodes = env.pools.pools.get('workers')!.instances.map((i) => env.pools.nodeName(i.id));
  env.kube.addWorkload(
    { kind: 'Deployment', namespace: 'default', name: 'web', replicas: 3, labels: { app: 'web' } },
    workerNodes,
  );
  env.kube.addPdb('default', 'web', { app: 'web' }, 2);
  const clusterPorts: ClusterPorts = {
    stacks: env.stacks,
    pools: env.pools,
    kube: env.kube,
    lookups: noLookups,
    values: new StaticValuesProvider(),
    alarms: env.alarms,
    leftovers: env.leftovers,
    eks: env.eks,
    nodeFiles: env.nodeFiles,
    quotas: env.quotas,
  };
  const ports: Ports = { ...env.ports, templates: new HandlebarsTemplateEngine(), forCluster: () => clusterPorts };
  return {
    env,
    cluster,
    ports,
    run: (executionId = 'exec-1') =>
      runClusterUpdate(
        { clusterId: cluster.id, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
        { ports, executionId, advanceClock: (seconds) => env.clock.advance(seconds * 1000), ...extra },
      ),
  };
}
