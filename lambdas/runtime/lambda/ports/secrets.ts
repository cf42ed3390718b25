import { secretsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of `aws:kms:` config items, decrypted with KMS in the task's own account (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return { secrets: (await sharedCloud(env, [secretsPart])).secrets };
}
