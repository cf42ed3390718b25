import { awsAccountId } from '../../../core/model/cluster';
import { lookupsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of a cluster's template lookups (AMIs, instance types) in EC2 (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const aws = await sharedCloud(env, [lookupsPart]);
  return {
    cluster: { lookups: (cluster) => aws.lookupsFor(awsAccountId(cluster.infrastructureAccount), cluster.region) },
  };
}
