import { templatesFactory } from '../../cloud/templates-factory';
import { lookupsPart } from '../../../adapters/aws/aws-kit';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { onFirstCall } from './on-first-call';
import { sharedCloud } from './shared-cloud';

/**
 * Port module of the template engine, whose `amiID`/`instanceType*` ask EC2 in the rendered cluster's account; the
 * EC2 client loads at a template's first lookup (on-first-call.ts), so a config without lookups never loads it.
 */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const lookupsFor = (accountId: string, region: string) =>
    onFirstCall(async () => (await sharedCloud(env, [lookupsPart])).lookupsFor(accountId, region));
  return { templates: templatesFactory(lookupsFor) };
}
