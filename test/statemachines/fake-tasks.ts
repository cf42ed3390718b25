/**
 * Fake Lambda tasks for the local runs of the state machines (local-harness.ts): they parse their payload with the
 * TaskPayload contract, record the call and answer with the task's output contract.
 */
import { ClusterUpdateState, RolloutState, TaskPayload } from '../../lambdas/contracts/cluster-update';
import type {
  ClusterUpdateInput,
  FinalizeOutput,
  PrepareOutput,
  RenderConfigOutput,
  RenderResourcesOutput,
  RollStepOutput,
  StepOutput,
} from '../../lambdas/contracts/cluster-update';
import { MAX_ROLLOUT_ITERATIONS } from '../../lambdas/contracts/status';
import type { Decision } from '../../lambdas/contracts/status';
import type { FakeTask } from './local-harness';

/** The cluster-update input every run starts from. */
export const INPUT: ClusterUpdateInput = {
  clusterId: 'aws:123456789012:eu-central-1:kube-1',
  action: 'provision',
  options: { applyOnly: false },
  trigger: 'cli',
};

export interface Call {
  readonly state: string;
  readonly payload: TaskPayload;
}

/** Fake Lambda tasks: each call is parsed with the TaskPayload contract and recorded. */
export function recorder() {
  const calls: Call[] = [];
  const task = <T>(respond: (payload: TaskPayload, call: number) => T): FakeTask => {
    let count = 0;
    return (raw: unknown) => {
      const payload = TaskPayload.parse(raw);
      calls.push({ state: payload.stateName, payload });
      count += 1;
      return respond(payload, count);
    };
  };
  return { calls, task };
}

export const done = (message = 'done'): StepOutput => ({ status: 'DONE', waitSeconds: 1, message });
export const inProgress = (message = 'working'): StepOutput => ({ status: 'IN_PROGRESS', waitSeconds: 30, message });

export function prepare(decision: Decision): PrepareOutput {
  return {
    decision,
    targetVersion: 'abc123#def456',
    previousVersion: 'old#old',
    holder: 'exec-1',
    message: `decision ${decision}`,
  };
}

/** Every parent task answering "done" at once; `resources` picks the pools to roll. */
export function provisionTasks(
  rec: ReturnType<typeof recorder>,
  resources: Partial<RenderResourcesOutput> = {},
  overrides: Record<string, FakeTask> = {},
) {
  const step = rec.task(() => done());
  const stateOf = (payload: TaskPayload) => ClusterUpdateState.parse(payload.state);
  // As the real tasks: done, with the candidates of $.resources that have something to roll (here all of them).
  const rollsAfter = (group: 'rollMasterPools' | 'rollWorkerPools') =>
    rec.task((p): StepOutput => {
      const rollPools = stateOf(p).resources?.[group] ?? [];
      return { ...done(), rollPools, rollPoolCount: rollPools.length };
    });
  return {
    Prepare: rec.task(() => prepare('UPDATE')),
    RenderConfig: rec.task((p): RenderConfigOutput => ({
      artifactKey: `render/${stateOf(p).run!.targetVersion}`,
      message: 'rendered',
      approvalRequired: false,
    })),
    DeployMainStack: step,
    RenderClusterResources: rec.task((): RenderResourcesOutput => ({
      artifactKey: 'resources/1',
      rollMasterPools: [],
      rollWorkerPools: [],
      message: 'rendered',
      ...resources,
    })),
    DeployCfManifestStacks: step,
    DeployMasterPoolStacks: rollsAfter('rollMasterPools'),
    // passes on the master pools to roll, as the real task
    WaitForApiServer: rec.task((p): StepOutput => {
      const rollPools = stateOf(p).step?.rollPools ?? [];
      return { ...done(), rollPools, rollPoolCount: rollPools.length };
    }),
    DeployWorkerPoolStacks: rollsAfter('rollWorkerPools'),
    PreApplyDeletions: step,
    ApplyManifests: step,
    PostApplyDeletions: step,
    CheckWorkloadHealth: step,
    RemoveDeletedPools: step,
    RemoveDrainedPools: step,
    Finalize: rec.task((p): FinalizeOutput => ({
      status: 'SUCCEEDED',
      version: stateOf(p).run!.targetVersion,
      message: 'updated',
    })),
    RecordProblem: rec.task(() => ({ recorded: true })),
    ...overrides,
  };
}

/** A RollNodePool fake that replaces one node per step; `iteration` counts steps of this execution. */
export function rollStep(nodes: number, opts: { jumpToCapAt?: number } = {}): FakeTask {
  let replaced = 0;
  return (raw: unknown) => {
    const payload = TaskPayload.parse(raw);
    const state = RolloutState.parse(payload.state);
    const iteration = (state.step?.iteration ?? 0) + 1;
    replaced = Math.min(nodes, replaced + 1);
    const out: RollStepOutput = {
      status: replaced >= nodes ? 'DONE' : 'IN_PROGRESS',
      waitSeconds: 60,
      message: `${state.pool}: ${replaced}/${nodes} nodes replaced`,
      pool: state.pool,
      iteration: opts.jumpToCapAt !== undefined && iteration >= opts.jumpToCapAt ? MAX_ROLLOUT_ITERATIONS : iteration,
      replaced,
      total: nodes,
    };
    return out;
  };
}
