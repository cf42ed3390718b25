import { valuesPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of a cluster's deploy-time values (subnets, VPC) from EC2 (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return { cluster: { values: (await sharedCloud(env, [valuesPart])).values } };
}
