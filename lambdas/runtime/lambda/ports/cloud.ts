import { awsAccountId } from '../../../core/model/cluster';
import { cloudFactories } from '../../cloud/cloud-factories';
import { templatesFactory } from '../../cloud/templates-factory';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';

/**
 * Port module of the AWS side of clusters (stacks, pools, values, lookups), KMS and the template engine whose
 * `amiID`/`instanceType*` ask EC2 in the rendered cluster's account (see ../port-modules.ts).
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const aws = cloudFactories(env);
  return {
    templates: templatesFactory(aws.lookupsFor),
    secrets: aws.secrets,
    cluster: {
      stacks: aws.stacks,
      pools: aws.pools,
      values: aws.values,
      lookups: (cluster) => aws.lookupsFor(awsAccountId(cluster.infrastructureAccount), cluster.region),
    },
  };
}
