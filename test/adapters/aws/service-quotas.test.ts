// ServiceQuotasAccountQuotas against stubbed clients: the applied limit from GetServiceQuota, a quota that cannot be
// read (AccessDenied) reported unknown with its reason, and the vCPUs of the running On-Demand instances per quota.
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-jest';
import { ServiceQuotasAccountQuotas } from '../../../lambdas/adapters/aws/service-quotas';
import { sdkError } from './sdk-errors';

const quotas = mockClient(ServiceQuotasClient);
const ec2 = mockClient(EC2Client);
const adapter = () => new ServiceQuotasAccountQuotas(new ServiceQuotasClient({}), new EC2Client({}));

beforeEach(() => {
  quotas.reset();
  ec2.reset();
});

describe('ServiceQuotasAccountQuotas', () => {
  it('reads the applied limit of the ec2 quota by its code', async () => {
    quotas.on(GetServiceQuotaCommand).resolves({ Quota: { QuotaCode: 'L-1216C47A', Value: 640 } });
    expect(await adapter().vcpuLimit('L-1216C47A')).toEqual({ limit: 640 });
    expect(quotas).toHaveReceivedCommandWith(GetServiceQuotaCommand, { ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' });
  });

  it('says why a limit is unknown instead of failing (no right to read it)', async () => {
    quotas
      .on(GetServiceQuotaCommand)
      .rejects(sdkError('AccessDeniedException', 'User is not authorized to perform: servicequotas:GetServiceQuota'));
    expect(await adapter().vcpuLimit('L-1216C47A')).toEqual({
      unknown:
        'Service Quotas GetServiceQuota ec2/L-1216C47A: AccessDeniedException: User is not authorized to perform: servicequotas:GetServiceQuota',
    });
  });

  it("sums the running On-Demand instances' vCPUs per quota: CpuOptions where given, spot left out", async () => {
    ec2.on(DescribeInstancesCommand).resolves({
      Reservations: [
        {
          Instances: [
            { InstanceId: 'i-1', InstanceType: 'm5.xlarge', CpuOptions: { CoreCount: 2, ThreadsPerCore: 1 } },
            { InstanceId: 'i-2', InstanceType: 'm5.xlarge' },
            { InstanceId: 'i-3', InstanceType: 'm5.xlarge', InstanceLifecycle: 'spot' },
            { InstanceId: 'i-4', InstanceType: 'g5.2xlarge' },
          ],
        },
      ],
    });
    expect(await adapter().vcpusInUse()).toEqual({ 'L-1216C47A': 2 + 4, 'L-DB2E81BA': 8 });
    expect(ec2).toHaveReceivedCommandWith(DescribeInstancesCommand, {
      Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running'] }],
    });
  });
});
