import { awsAccountId } from '../../../core/model/cluster';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of the AWS side of clusters (stacks, pools, values, lookups) and KMS (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const aws = sharedCloud(env);
  return {
    secrets: aws.secrets,
    cluster: {
      stacks: aws.stacks,
      pools: aws.pools,
      values: aws.values,
      leftovers: aws.leftovers,
      lookups: (cluster) => aws.lookupsFor(awsAccountId(cluster.infrastructureAccount), cluster.region),
    },
  };
}
