import type { Cluster } from '../model/cluster';
import { clusterHash } from '../version/cluster-hash';
import type { StackState } from './layer-changes';
import type { ResolvedStack } from './resolve-stack';
import { STACK_ITEM, STACK_VERSION_ITEM } from './stack-ref';

/**
 * What a run records of the stack it moves a cluster to. `rest` fingerprints everything outside the stack:
 * the registry entry without the pin items (moving the pin alone changes no other step) and the versions of
 * the config sources that do not hold the stack.
 */
export function stackState(
  cluster: Cluster,
  stack: ResolvedStack,
  sourceVersions: Readonly<Record<string, string>>,
): StackState {
  const { [STACK_ITEM]: _stack, [STACK_VERSION_ITEM]: _version, ...items } = cluster.configItems;
  const others = Object.entries(sourceVersions)
    .filter(([name]) => name !== stack.source)
    .map(([name, version]) => `${name}=${version}`);
  return {
    name: stack.name,
    version: stack.metadata.clusterStack,
    kubernetes: stack.metadata.kubernetes,
    components: stack.metadata.components,
    digests: stack.digests,
    rest: [clusterHash({ ...cluster, configItems: items }), ...others].join(';'),
  };
}
