import { quotasPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of the account's On-Demand vCPU quotas (Service Quotas GetServiceQuota, EC2 DescribeInstances; the
 * tasks that rehearse an update; see ../port-modules.ts). The clients load at the first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: {
      quotas: (cluster) => onFirstCall(async () => (await sharedCloud(env, [quotasPart])).quotas(cluster)),
    },
  };
}
