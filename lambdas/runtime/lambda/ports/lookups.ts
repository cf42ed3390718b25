import { awsAccountId } from '../../../core/model/cluster';
import { lookupsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of a cluster's template lookups (AMIs, instance types) in EC2 (see ../port-modules.ts). The clients load
 * at the first lookup (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: {
      lookups: (cluster) =>
        onFirstCall(async () =>
          (await sharedCloud(env, [lookupsPart])).lookupsFor(
            awsAccountId(cluster.infrastructureAccount),
            cluster.region,
          ),
        ),
    },
  };
}
