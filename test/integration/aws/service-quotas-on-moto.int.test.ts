// The account's vCPU quotas against moto (ServiceQuotasAccountQuotas): the use is counted from EC2 DescribeInstances of
// the pending and running On-Demand instances (spot and terminated ones left out), and a quota Service Quotas does not
// serve is "unknown" with its reason, never an error. moto's Service Quotas serves only the `vpc` service: its
// GetServiceQuota for an ec2 code answers NoSuchResourceException, which is the unknown path here; the known path is
// test/adapters/aws/service-quotas.test.ts against a stubbed client.
import { RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { createAccountClients } from '../../../lambdas/adapters/aws/aws-clients';
import { ServiceQuotasAccountQuotas } from '../../../lambdas/adapters/aws/service-quotas';
import { MOTO_ACCOUNT, MOTO_CREDENTIALS, REGION, motoEndpoint, resetMoto } from '../support/environment';

const endpoint = motoEndpoint();
const clients = () =>
  createAccountClients({ accountId: MOTO_ACCOUNT, region: REGION, endpoint, credentials: MOTO_CREDENTIALS });

beforeAll(() => resetMoto(endpoint));

async function run(type: string, count: number, spot = false): Promise<string[]> {
  const out = await clients().ec2.send(
    new RunInstancesCommand({
      ImageId: 'ami-03cf127a',
      InstanceType: type as never,
      MinCount: count,
      MaxCount: count,
      ...(spot ? { InstanceMarketOptions: { MarketType: 'spot' } } : {}),
    }),
  );
  return (out.Instances ?? []).map((i) => i.InstanceId!);
}

describe('ServiceQuotasAccountQuotas on moto', () => {
  it("counts the On-Demand vCPUs the account runs per quota and reports an unserved quota's limit as unknown", async () => {
    // Arrange: 3 m5.large + 1 m5.xlarge running, 1 c5.xlarge terminated, 1 spot m5.2xlarge, 1 g5.xlarge
    const { ec2, serviceQuotas } = clients();
    await run('m5.large', 3);
    await run('m5.xlarge', 1);
    const gone = await run('c5.xlarge', 1);
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: gone }));
    await run('m5.2xlarge', 1, true);
    await run('g5.xlarge', 1);
    const quotas = new ServiceQuotasAccountQuotas(serviceQuotas, ec2);

    // Act
    const used = await quotas.vcpusInUse();
    const limit = await quotas.vcpuLimit('L-1216C47A');

    // Assert
    expect(used).toEqual({ 'L-1216C47A': 3 * 2 + 4, 'L-DB2E81BA': 4 });
    expect(limit).toEqual({
      unknown: expect.stringMatching(/^Service Quotas GetServiceQuota ec2\/L-1216C47A: NoSuchResourceException/),
    });
  });
});
