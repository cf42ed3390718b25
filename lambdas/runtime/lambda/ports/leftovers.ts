import { leftoversPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of decommission's cleanup of what a cluster left outside its stacks (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const aws = await sharedCloud(env, [leftoversPart]);
  return { cluster: { leftovers: (cluster) => aws.leftovers(cluster) } };
}
