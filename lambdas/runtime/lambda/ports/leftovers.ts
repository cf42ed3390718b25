import { leftoversPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of decommission's cleanup of what a cluster left outside its stacks (see ../port-modules.ts). The
 * clients load at the first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: {
      leftovers: (cluster) => onFirstCall(async () => (await sharedCloud(env, [leftoversPart])).leftovers(cluster)),
    },
  };
}
