import { poolsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of a cluster's node pools: Auto Scaling groups and their EC2 instances (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return { cluster: { pools: (await sharedCloud(env, [poolsPart])).pools } };
}
