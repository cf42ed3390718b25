import { stacksPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of a cluster's CloudFormation stacks (templates staged in S3) (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return { cluster: { stacks: (await sharedCloud(env, [stacksPart])).stacks } };
}
