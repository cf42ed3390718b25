import { FULL_AWS_KIT } from '../../../lambdas/adapters/aws/full-aws-kit';
import { awsClusterPortsFactory, clmBucketName } from '../../../lambdas/adapters/aws/aws-cluster-ports';
import { createAwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { AsgNodePoolBackend } from '../../../lambdas/adapters/aws/asg-node-pool-backend';
import { AwsValuesProvider } from '../../../lambdas/adapters/aws/aws-values-provider';
import { CloudFormationStackDeployer } from '../../../lambdas/adapters/aws/cloudformation-stack-deployer';
import { Ec2CloudLookups } from '../../../lambdas/adapters/aws/ec2-cloud-lookups';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { EMPTY_STATUS } from '../../../lambdas/core/model/cluster';
import { ConfigError } from '../../../lambdas/shared/errors';

function cluster(id: string, infrastructureAccount: string, region = 'eu-central-1'): Cluster {
  return {
    id,
    alias: id,
    localId: id,
    apiServerUrl: `https://${id}.example.org`,
    channel: 'stable',
    configItems: {},
    criticalityLevel: 1,
    environment: 'test',
    infrastructureAccount,
    lifecycleStatus: 'ready',
    nodePools: [],
    provider: 'zalando-aws',
    region,
    status: EMPTY_STATUS,
  };
}

describe('awsClusterPortsFactory', () => {
  it('builds the adapters once per account and region', () => {
    // Arrange
    const created: string[] = [];
    const factory = awsClusterPortsFactory({
      kit: FULL_AWS_KIT,
      createClients: (accountId, region) => {
        created.push(`${accountId}/${region}`);
        return createAwsClients({
          region,
          endpoint: 'http://127.0.0.1:9',
          credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
        });
      },
    });

    // Act
    const a = factory(cluster('c1', 'aws:111111111111'));
    const b = factory(cluster('c2', 'aws:111111111111'));
    const c = factory(cluster('c3', 'aws:111111111111', 'us-east-1'));
    factory(cluster('c4', 'aws:222222222222'));

    // Assert
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(created).toEqual(['111111111111/eu-central-1', '111111111111/us-east-1', '222222222222/eu-central-1']);
    expect(a.stacks).toBeInstanceOf(CloudFormationStackDeployer);
    expect(a.pools).toBeInstanceOf(AsgNodePoolBackend);
    expect(a.lookups).toBeInstanceOf(Ec2CloudLookups);
    expect(a.values).toBeInstanceOf(AwsValuesProvider);
  });

  it('rejects an infrastructure account that is not aws:<12 digits>, naming the cluster and field', () => {
    const factory = awsClusterPortsFactory({
      kit: FULL_AWS_KIT,
      createClients: () => {
        throw new Error('not reached');
      },
    });
    const act = () => factory(cluster('c1', 'gcp:123'));
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(
      'cluster c1, field infrastructure_account: infrastructure_account must look like aws:<12-digit account id>, got "gcp:123"',
    );
  });

  it('names the CLM bucket after account and region', () => {
    expect(clmBucketName('123456789012', 'eu-central-1')).toBe('cluster-lifecycle-manager-123456789012-eu-central-1');
  });
});
