import { poolsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of a cluster's node pools: Auto Scaling groups and their EC2 instances (see ../port-modules.ts). The
 * clients load at the pool's first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: { pools: (cluster) => onFirstCall(async () => (await sharedCloud(env, [poolsPart])).pools(cluster)) },
  };
}
