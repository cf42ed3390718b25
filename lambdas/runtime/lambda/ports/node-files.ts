import { nodeFilesPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of the files bundles nodes download, in the cluster account's S3 and KMS (see ../port-modules.ts). The
 * clients load at the first call (on-first-call.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return {
    cluster: {
      nodeFiles: (cluster) => onFirstCall(async () => (await sharedCloud(env, [nodeFilesPart])).nodeFiles(cluster)),
    },
  };
}
