import { templatesFactory } from '../../cloud/templates-factory';
import { lookupsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { sharedCloud } from './shared-cloud';

/** Port module of the template engine, whose `amiID`/`instanceType*` ask EC2 in the rendered cluster's account. */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  return { templates: templatesFactory((await sharedCloud(env, [lookupsPart])).lookupsFor) };
}
