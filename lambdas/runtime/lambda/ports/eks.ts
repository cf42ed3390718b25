import { eksPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of EKS DescribeCluster (the creation hook and decommission of zalando-eks clusters; see
 * ../port-modules.ts). The clients load at the first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: {
      eks: (cluster) => onFirstCall(async () => (await sharedCloud(env, [eksPart])).eks(cluster)),
    },
  };
}
