import type { StackSteps } from '../../core/cluster-stacks/layer-changes';
import type { StackPlan } from '../../core/plan/plan-document';
import { stackPlan } from '../../core/plan/plan-document';
import type { ClusterRender } from '../../core/render/render-cluster';
import type { ClusterPorts } from '../../ports/ports';

/** The layer step each kind of stack belongs to (the etcd stack deploys with the main stack). */
const STEP_OF_KIND = {
  etcd: 'mainStack',
  cluster: 'mainStack',
  'cf-manifest': 'cfManifestStacks',
  'node-pool': 'poolStacks',
} as const;

/** The change set of every stack whose layer step runs. */
export function stackPlans(
  stacks: ClusterRender['stacks'],
  steps: StackSteps | undefined,
  deployer: ClusterPorts['stacks'],
): Promise<StackPlan[]> {
  return Promise.all(
    stacks
      .filter((s) => !steps || steps[STEP_OF_KIND[s.kind]])
      .map(async (s) =>
        stackPlan(
          s,
          await deployer.plan({
            name: s.name,
            templateBody: s.template,
            tags: s.tags,
            ...(s.stackPolicy ? { stackPolicyBody: s.stackPolicy } : {}),
          }),
        ),
      ),
  );
}
