import type { ClusterResources, ClusterResourcesInput } from './render-cluster-resources';
import { renderClusterResources } from './render-cluster-resources';
import type { RenderIssue } from './render-issue';

/**
 * Everything after the main stack (node pools, cf-manifests, manifests, deletions) rendered once more
 * before the main stack is deployed, with its outputs unknown, so a broken pool stack, cf-manifest or
 * manifest fails the update before any stack is touched. A problem that names `ClusterStackOutputs`
 * needs the outputs: it is left to RenderClusterResources, which renders with them.
 */
export async function issuesBeforeDeploy(input: ClusterResourcesInput): Promise<RenderIssue[]> {
  return (await renderBeforeDeploy(input)).issues;
}

/** As issuesBeforeDeploy, with what rendered (its stacks and manifests, for the checks against the live services). */
export async function renderBeforeDeploy(
  input: ClusterResourcesInput,
): Promise<{ readonly issues: RenderIssue[]; readonly resources: ClusterResources }> {
  const resources = await renderClusterResources({
    ...input,
    values: { ...input.values, ClusterStackOutputs: {} },
  });
  return { issues: resources.errors.filter((issue) => !issue.message.includes('ClusterStackOutputs')), resources };
}
