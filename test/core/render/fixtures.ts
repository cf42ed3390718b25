import type { ConfigSnapshot } from '../../../lambdas/ports/config-source';
import type { Cluster, NodePool } from '../../../lambdas/core/model/cluster';
import { HandlebarsTemplateEngine } from '../../../lambdas/adapters/templating/handlebars-template-engine';
import type { SecretDecrypter } from '../../../lambdas/ports/secrets';
import { testCluster, testPool } from '../../support/test-cluster';

/** Test data for the rendering pipeline: a small cluster, config sources from literal files, the real engine. */

export function pool(overrides: Partial<NodePool> = {}): NodePool {
  return testPool({ name: 'default-worker', minSize: 2, maxSize: 3, ...overrides });
}

export function cluster(overrides: Partial<Cluster> = {}): Cluster {
  return testCluster({
    apiServerUrl: 'https://kube-1.test.example.org',
    nodePools: [pool({ name: 'master', profile: 'master-default', minSize: 1, maxSize: 1 }), pool()],
    ...overrides,
  });
}

export function snapshot(sourceName: string, files: Record<string, string>): ConfigSnapshot {
  return { sourceName, version: `${sourceName}-v1`, files: new Map(Object.entries(files)) };
}

export function engine(): HandlebarsTemplateEngine {
  return new HandlebarsTemplateEngine();
}

/** A decrypter that really "decrypts" (reverses the text) and counts its calls. */
export class FakeDecrypter implements SecretDecrypter {
  readonly calls: string[] = [];
  constructor(private readonly failOn?: string) {}
  async decrypt(ciphertext: string): Promise<string> {
    this.calls.push(ciphertext);
    if (ciphertext === this.failOn) throw new Error('AccessDeniedException: not allowed to use the key');
    return [...ciphertext].reverse().join('');
  }
}

/** Minimal node-pool profile templates that expose what the pipeline put into Values. */
export const POOL_PROFILE = {
  'files.yaml': 'files:\n  - path: /etc/pool\n    data: {{base64 NodePool.Name}}\n    permissions: 0644\n',
  'userdata.yaml': '#cloud-config\npool: {{NodePool.Name}}\nfiles: {{Values.S3GeneratedFilesPath}}\n',
  'stack.yaml': [
    'AWSTemplateFormatVersion: "2010-09-09"',
    'Metadata:',
    '  Tags: {team: nodes, NodePool: overridden-by-clm}',
    'Resources:',
    '  LaunchTemplate:',
    '    Type: AWS::EC2::LaunchTemplate',
    '    Properties:',
    '      LaunchTemplateData: {UserData: "{{Values.UserData}}", InstanceType: "{{NodePool.InstanceType}}"}',
    '  AutoScalingGroup:',
    '    Type: AWS::AutoScaling::AutoScalingGroup',
    '    Properties:',
    '      LaunchTemplate: {LaunchTemplateId: !Ref LaunchTemplate, Version: !GetAtt LaunchTemplate.LatestVersionNumber}',
    '      VPCZoneIdentifier: !Split [",", "{{Values.subnets.[*]}}"]',
    '      AvailabilityZones: [{{join "," Values.availability_zones}}]',
    '      MinSize: "{{NodePool.MinSize}}"',
    '      MaxSize: "{{NodePool.MaxSize}}"',
    '',
  ].join('\n'),
};

/** A complete minimal source: cluster stack, both profiles, one manifest component. */
export function mainSourceFiles(extra: Record<string, string> = {}): Record<string, string> {
  const profile = (name: string) =>
    Object.fromEntries(
      Object.entries(POOL_PROFILE).map(([file, content]) => [`cluster/node-pools/${name}/${file}`, content]),
    );
  return {
    'cluster/cluster.yaml': 'Metadata:\n  Tags: {team: platform}\nResources:\n  Topic: {Type: AWS::SNS::Topic}\n',
    ...profile('master-default'),
    ...profile('worker-default'),
    'cluster/manifests/01-base/namespace.yaml':
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: base-{{Cluster.Environment}}\n',
    ...extra,
  };
}

export const VALUES = {
  availability_zones: ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'],
  subnets: {
    'eu-central-1a': 'subnet-a',
    'eu-central-1b': 'subnet-b',
    'eu-central-1c': 'subnet-c',
    '*': 'subnet-a,subnet-b,subnet-c',
  },
  ClusterStackOutputs: { WorkerFilesEncryptionKey: 'key-worker', MasterFilesEncryptionKey: 'key-master' },
};
