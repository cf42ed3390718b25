/**
 * The link between the ASL files and whoever fills their `${Placeholders}`: the CDK constructs (function and
 * state machine ARNs), the static ASL tests, and the local executor. Plain data and two string helpers, no
 * CDK imports, so any of them can import it.
 */

/** Lambda tasks: placeholder in the ASL → handler file in `lambdas/handlers/` (without `.ts`). */
export const TASK_FUNCTIONS = {
  Prepare: { placeholder: 'PrepareFunctionArn', handler: 'prepare' },
  RenderConfig: { placeholder: 'RenderConfigFunctionArn', handler: 'render-config' },
  RenderClusterResources: { placeholder: 'RenderClusterResourcesFunctionArn', handler: 'render-cluster-resources' },
  DeployStacks: { placeholder: 'DeployStacksFunctionArn', handler: 'deploy-stacks' },
  WaitForApiServer: { placeholder: 'WaitForApiServerFunctionArn', handler: 'wait-for-api-server' },
  RollNodePool: { placeholder: 'RollNodePoolFunctionArn', handler: 'roll-node-pool' },
  ApplyManifests: { placeholder: 'ApplyManifestsFunctionArn', handler: 'apply-manifests' },
  RemoveDeletedPools: { placeholder: 'RemoveDeletedPoolsFunctionArn', handler: 'remove-deleted-pools' },
  ScaleDownControllers: { placeholder: 'ScaleDownControllersFunctionArn', handler: 'scale-down-controllers' },
  DeleteStacks: { placeholder: 'DeleteStacksFunctionArn', handler: 'delete-stacks' },
  Finalize: { placeholder: 'FinalizeFunctionArn', handler: 'finalize' },
  RecordProblem: { placeholder: 'RecordProblemFunctionArn', handler: 'record-problem' },
} as const;

export type TaskFunctionName = keyof typeof TASK_FUNCTIONS;
export const TASK_FUNCTION_NAMES = Object.keys(TASK_FUNCTIONS) as TaskFunctionName[];

/** The placeholder of the child state machine's ARN in cluster-update.asl.json. */
export const NODE_POOL_ROLLOUT_STATE_MACHINE_PLACEHOLDER = 'NodePoolRolloutStateMachineArn';

/** ASL files, relative to the repository root. */
export const ASL_FILES = {
  clusterUpdate: 'statemachines/cluster-update.asl.json',
  nodePoolRollout: 'statemachines/node-pool-rollout.asl.json',
} as const;
export type StateMachineKey = keyof typeof ASL_FILES;

/** Lambda tasks each machine invokes (the grants follow this list). */
export const STATE_MACHINE_TASKS = {
  clusterUpdate: [
    'Prepare',
    'RenderConfig',
    'RenderClusterResources',
    'DeployStacks',
    'WaitForApiServer',
    'ApplyManifests',
    'RemoveDeletedPools',
    'ScaleDownControllers',
    'DeleteStacks',
    'Finalize',
    'RecordProblem',
  ],
  nodePoolRollout: ['RollNodePool'],
} as const satisfies { readonly [K in StateMachineKey]: readonly TaskFunctionName[] };

/** Every `${Key}` each ASL file expects in `definitionSubstitutions`, sorted. */
export const SUBSTITUTION_KEYS: { readonly [K in StateMachineKey]: readonly string[] } = {
  clusterUpdate: [
    ...STATE_MACHINE_TASKS.clusterUpdate.map((task: TaskFunctionName) => TASK_FUNCTIONS[task].placeholder),
    NODE_POOL_ROLLOUT_STATE_MACHINE_PLACEHOLDER,
  ].sort(),
  nodePoolRollout: STATE_MACHINE_TASKS.nodePoolRollout
    .map((task: TaskFunctionName) => TASK_FUNCTIONS[task].placeholder)
    .sort(),
};

const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;

/** The distinct `${Key}` names in an ASL text, sorted. */
export function placeholdersIn(aslText: string): string[] {
  return [...new Set([...aslText.matchAll(PLACEHOLDER)].map((match) => match[1]))].sort();
}

/**
 * Replace every `${Key}` as Step Functions' `definitionSubstitutions` does. Throws naming the keys that have no
 * value, so a renamed placeholder fails loudly instead of reaching AWS as a literal `${...}`.
 */
export function substitutePlaceholders(aslText: string, values: Readonly<Record<string, string>>): string {
  const missing = placeholdersIn(aslText).filter((key) => !(key in values));
  if (missing.length > 0) {
    throw new Error(
      `No substitution for ${missing.map((key) => `\${${key}}`).join(', ')} (have: ${Object.keys(values).sort().join(', ') || 'none'})`,
    );
  }
  return aslText.replace(PLACEHOLDER, (_, key: string) => values[key]);
}
