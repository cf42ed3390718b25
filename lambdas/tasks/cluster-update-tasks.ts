import { z } from 'zod';
import {
  ClusterUpdateState,
  FinalizeOutput,
  PrepareOutput,
  RenderConfigOutput,
  RenderResourcesOutput,
  RollStepOutput,
  RolloutState,
  StepOutput,
  TaskPayload,
} from '../contracts/cluster-update';
import { applyManifests } from '../core/workflow/apply-manifests';
import { deployStacks, waitForApiServer } from '../core/workflow/deploy-stacks';
import { finalize } from '../core/workflow/finalize';
import { prepare } from '../core/workflow/prepare';
import { recordProblem } from '../core/workflow/record-problem';
import { deleteClusterStacks, scaleDownControllers } from '../core/workflow/decommission';
import { removeDeletedPools } from '../core/workflow/remove-deleted-pools';
import { renderClusterResources } from '../core/workflow/render-cluster-resources';
import { renderConfig } from '../core/workflow/render-config';
import { rollNodePool } from '../core/workflow/roll-node-pool';
import type { RunRef } from '../core/workflow/run-state';
import type { Ports } from '../ports/ports';
import { InvalidTaskInputError } from '../shared/errors';
import { defineTask, type TaskDefinition } from '../shared/task';

/**
 * Every task of the two state machines: its contract and the one core function it calls. Lambda handlers
 * (handlers/*.ts) and the local executor both run these definitions.
 */

/** The shared task payload (contracts: TaskPayload) with the state this machine carries. */
const Payload = <S extends z.ZodType>(state: S) => TaskPayload.extend({ state });

const UpdatePayload = Payload(ClusterUpdateState);
type UpdatePayload = z.infer<typeof UpdatePayload>;

function runRef(payload: UpdatePayload): RunRef {
  const run = payload.state.run;
  if (!run) throw new InvalidTaskInputError(`${payload.stateName}: the state has no $.run (Prepare did not run)`);
  return { clusterId: payload.state.clusterId, targetVersion: run.targetVersion, holder: run.holder };
}

/** A polling task of cluster-update: payload in, `$.step` out. */
function stepTask(
  name: string,
  run: (payload: UpdatePayload, ports: Ports) => Promise<StepOutput>,
): TaskDefinition<UpdatePayload, StepOutput, Ports> {
  return defineTask({ name, input: UpdatePayload, output: StepOutput, run });
}

export const prepareTask = defineTask({
  name: 'Prepare',
  input: UpdatePayload,
  output: PrepareOutput,
  run: (p: UpdatePayload, ports: Ports) => prepare(p.state, p.executionId, ports),
});

export const renderConfigTask = defineTask({
  name: 'RenderConfig',
  input: UpdatePayload,
  output: RenderConfigOutput,
  run: (p: UpdatePayload, ports: Ports) => renderConfig(runRef(p), ports),
});

export const renderClusterResourcesTask = defineTask({
  name: 'RenderClusterResources',
  input: UpdatePayload,
  output: RenderResourcesOutput,
  run: (p: UpdatePayload, ports: Ports) => renderClusterResources(runRef(p), p.state.options, ports),
});

export const deployStacksTask = stepTask('DeployStacks', (p: UpdatePayload, ports: Ports) => {
  const stage = p.params.stage;
  if (stage !== 'main' && stage !== 'cf-manifests' && stage !== 'master-pools' && stage !== 'worker-pools') {
    throw new InvalidTaskInputError(
      `DeployStacks needs params.stage main|cf-manifests|master-pools|worker-pools, got ${String(stage)}`,
    );
  }
  return deployStacks(runRef(p), stage, ports);
});

export const waitForApiServerTask = stepTask('WaitForApiServer', (p: UpdatePayload, ports: Ports) =>
  waitForApiServer(runRef(p), ports),
);

export const applyManifestsTask = stepTask('ApplyManifests', (p: UpdatePayload, ports: Ports) => {
  if (!p.params.phase)
    throw new InvalidTaskInputError('ApplyManifests needs params.phase pre-deletions|apply|post-deletions');
  return applyManifests(runRef(p), p.params.phase, ports);
});

export const removeDeletedPoolsTask = stepTask('RemoveDeletedPools', (p: UpdatePayload, ports: Ports) =>
  removeDeletedPools(runRef(p), ports),
);

export const scaleDownControllersTask = stepTask('ScaleDownControllers', (p: UpdatePayload, ports: Ports) =>
  scaleDownControllers(runRef(p), ports),
);

export const deleteStacksTask = stepTask('DeleteStacks', (p: UpdatePayload, ports: Ports) => {
  const stage = p.params.stage;
  if (stage !== 'others' && stage !== 'main')
    throw new InvalidTaskInputError(`DeleteStacks needs params.stage others|main, got ${String(stage)}`);
  return deleteClusterStacks(runRef(p), stage, ports);
});

export const finalizeTask = defineTask({
  name: 'Finalize',
  input: UpdatePayload,
  output: FinalizeOutput,
  run: (p: UpdatePayload, ports: Ports) => finalize(runRef(p), ports),
});

export const recordProblemTask = defineTask({
  name: 'RecordProblem',
  input: UpdatePayload,
  output: z.object({ problem: z.string() }),
  run: (p: UpdatePayload, ports: Ports) =>
    recordProblem(
      {
        clusterId: p.state.clusterId,
        ...(p.state.run ? { targetVersion: p.state.run.targetVersion, holder: p.state.run.holder } : {}),
        executionId: p.executionId,
        error: p.state.error ?? { Error: 'UnknownError', Cause: 'the execution failed without an error in $.error' },
      },
      ports,
    ),
});

const RolloutPayload = Payload(RolloutState);
type RolloutPayload = z.infer<typeof RolloutPayload>;

export const rollNodePoolTask = defineTask({
  name: 'RollNodePool',
  input: RolloutPayload,
  output: RollStepOutput,
  run: (p: RolloutPayload, ports: Ports) => rollNodePool(p.state, ports),
});

/** Task definitions by the name of the handler file/function that runs them. */
export const TASKS = {
  Prepare: prepareTask,
  RenderConfig: renderConfigTask,
  RenderClusterResources: renderClusterResourcesTask,
  DeployStacks: deployStacksTask,
  WaitForApiServer: waitForApiServerTask,
  ApplyManifests: applyManifestsTask,
  RemoveDeletedPools: removeDeletedPoolsTask,
  ScaleDownControllers: scaleDownControllersTask,
  DeleteStacks: deleteStacksTask,
  Finalize: finalizeTask,
  RecordProblem: recordProblemTask,
  RollNodePool: rollNodePoolTask,
} as const satisfies Record<string, AnyTask>;

export type TaskName = keyof typeof TASKS;

/** A task whose input type is erased (inputs are parsed at run time by the task's own contract). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTask = TaskDefinition<any, unknown, Ports>;
