/**
 * AccountQuotas in AWS: the limit from Service Quotas (GetServiceQuota, service code `ec2`), the use from EC2
 * (DescribeInstances of the pending and running instances, per 1,000; spot instances count against other quotas and are
 * left out). An instance's vCPUs are its CpuOptions (cores × threads per core), else the pinned table's.
 */
import { GetServiceQuotaCommand } from '@aws-sdk/client-service-quotas';
import type { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { EC2Client } from '@aws-sdk/client-ec2';
import { vcpuQuotaOf, vcpusOf } from '../../core/capacity/vcpu-quotas';
import type { AccountQuotas } from '../../ports/account-quotas';
import { awsErrorMessage, awsErrorName, toClmError } from './aws-errors';
import { paginateDescribeInstances } from './ec2-api';

export class ServiceQuotasAccountQuotas implements AccountQuotas {
  constructor(
    private readonly serviceQuotas: ServiceQuotasClient,
    private readonly ec2: EC2Client,
  ) {}

  async vcpuLimit(code: string): Promise<{ readonly limit: number } | { readonly unknown: string }> {
    try {
      const out = await this.serviceQuotas.send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: code }));
      const value = out.Quota?.Value;
      return typeof value === 'number' ? { limit: value } : { unknown: `Service Quotas gave no value for ${code}` };
    } catch (error) {
      return {
        unknown: `Service Quotas GetServiceQuota ec2/${code}: ${awsErrorName(error)}: ${awsErrorMessage(error)}`,
      };
    }
  }

  async vcpusInUse(): Promise<Readonly<Record<string, number>>> {
    const used: Record<string, number> = {};
    try {
      const filters = [{ Name: 'instance-state-name', Values: ['pending', 'running'] }];
      for await (const page of paginateDescribeInstances({ client: this.ec2 }, { Filters: filters, MaxResults: 1000 }))
        for (const reservation of page.Reservations ?? [])
          for (const instance of reservation.Instances ?? []) {
            const type = instance.InstanceType ?? '';
            const quota = instance.InstanceLifecycle === 'spot' ? undefined : vcpuQuotaOf(type);
            if (!quota) continue;
            const cpu = instance.CpuOptions;
            const vcpus = cpu?.CoreCount && cpu.ThreadsPerCore ? cpu.CoreCount * cpu.ThreadsPerCore : vcpusOf(type);
            used[quota.code] = (used[quota.code] ?? 0) + vcpus;
          }
    } catch (error) {
      throw toClmError(error, 'EC2 DescribeInstances (the vCPUs the account runs)');
    }
    return used;
  }
}
