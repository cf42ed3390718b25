import { valuesPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of a cluster's deploy-time values (subnets, VPC) from EC2 (see ../port-modules.ts). The clients load at
 * the first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: { values: (cluster) => onFirstCall(async () => (await sharedCloud(env, [valuesPart])).values(cluster)) },
  };
}
