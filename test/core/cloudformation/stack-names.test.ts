import {
  cfManifestStackTags,
  clusterName,
  mainStackName,
  mainStackTags,
  mergeTags,
  nodePoolStackName,
  nodePoolStackTags,
} from '../../../lambdas/core/cloudformation/stack-names';
import { requireStackName, templateMetadata } from '../../../lambdas/core/cloudformation/template-metadata';
import { ConfigError } from '../../../lambdas/shared/errors';

const awsCluster = {
  id: 'aws:123456789012:eu-central-1:kube-1',
  alias: 'kube-one',
  localId: 'kube-1',
  provider: 'zalando-aws' as const,
};
const eksCluster = { ...awsCluster, provider: 'zalando-eks' as const };

describe('stack names', () => {
  it('names the main stack after local_id', () => {
    expect(mainStackName(awsCluster)).toBe('kube-1');
  });

  it('names node-pool stacks nodepool-<pool>-<id with dashes>', () => {
    expect(nodePoolStackName(awsCluster, 'default-worker')).toBe(
      'nodepool-default-worker-aws-123456789012-eu-central-1-kube-1',
    );
  });

  it("uses the id as CLM's Name() for zalando-aws and the alias for zalando-eks", () => {
    expect(clusterName(awsCluster)).toBe(awsCluster.id);
    expect(clusterName(eksCluster)).toBe('kube-one');
  });
});

describe('stack tags', () => {
  it('tags the main stack as owned by the cluster id and as the main stack, even for EKS', () => {
    expect(mainStackTags(eksCluster)).toEqual({
      'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1': 'owned',
      'cluster-lifecycle-controller.zalando.org/main-stack': 'true',
    });
  });

  it('tags node-pool stacks with the pool, its profile and the node-pool role', () => {
    expect(nodePoolStackTags(awsCluster, { name: 'db', profile: 'worker-splitaz' })).toEqual({
      'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1': 'owned',
      'kubernetes.io/role/node-pool': 'true',
      'kubernetes.io/node-pool': 'db',
      NodePool: 'db',
      'kubernetes.io/node-pool/profile': 'worker-splitaz',
    });
  });

  it('tags EKS node-pool and cf-manifest stacks with the alias', () => {
    expect(
      nodePoolStackTags(eksCluster, { name: 'db', profile: 'worker-default' })['kubernetes.io/cluster/kube-one'],
    ).toBe('owned');
    expect(cfManifestStackTags(eksCluster)).toEqual({ 'kubernetes.io/cluster/kube-one': 'owned' });
  });

  it("lets CLM's tags win over the template's", () => {
    expect(mergeTags({ NodePool: 'mine', team: 'a' }, { NodePool: 'db' })).toEqual({ NodePool: 'db', team: 'a' });
  });
});

describe('templateMetadata', () => {
  it('reads StackName and Tags, taking numbers and booleans as text', () => {
    expect(
      templateMetadata({ Metadata: { StackName: 'extra', Tags: { cost: 100, critical: true, team: 'x' } } }, 'f.yaml'),
    ).toEqual({ stackName: 'extra', tags: { cost: '100', critical: 'true', team: 'x' } });
  });

  it('gives no tags when there is no Metadata', () => {
    expect(templateMetadata({ Resources: {} }, 'f.yaml')).toEqual({ stackName: undefined, tags: {} });
  });

  it('fails naming the file and field for tags that are not a mapping of strings', () => {
    expect(() =>
      templateMetadata({ Metadata: { Tags: [{ Key: 'a', Value: 'b' }] } }, 'main/cluster/cf-manifests/x.yaml'),
    ).toThrow(
      'main/cluster/cf-manifests/x.yaml, field Metadata.Tags: Metadata.Tags must be a mapping of tag names to values',
    );
    expect(() => templateMetadata({ Metadata: { Tags: { a: { b: 1 } } } }, 'f.yaml')).toThrow(ConfigError);
  });

  it('requires Metadata.StackName for cf-manifests, naming the file', () => {
    expect(() => requireStackName({ Resources: {} }, 'main/cluster/cf-manifests/alerts.yaml')).toThrow(
      /main\/cluster\/cf-manifests\/alerts\.yaml, field Metadata\.StackName: a cf-manifest must declare Metadata\.StackName/,
    );
    expect(requireStackName({ Metadata: { StackName: 'kube-1-alerts' } }, 'f.yaml').stackName).toBe('kube-1-alerts');
  });
});
