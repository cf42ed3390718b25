// Static checks of statemachines/cluster-update.asl.json: decisions, stages and phases, the pool rollouts, CLM order.
import { ERROR_NAMES } from '../../lambdas/shared/errors';
import {
  DECISION,
  DELETE_STAGES,
  DEPLOY_STAGES,
  LOOP_CAPS,
  MANIFEST_PHASES,
  ROLLOUT_RESULT,
} from '../../lambdas/contracts/status';
import { RolloutInput, RolloutOutput } from '../../lambdas/contracts/cluster-update';
import { functionPlaceholder } from '../../lambdas/runtime/asl-files';
import { loadAsl, placeholderOf, walkStates, lambdaTasks } from './asl-graph';
import type { AslState } from './asl-graph';
import { SFN_SERVICE_ERRORS, START_CHILD_SYNC } from './asl-vocabulary';

const APPROVAL_GATE_ERRORS: readonly string[] = [
  ERROR_NAMES.ApprovalChangedError,
  ERROR_NAMES.ApprovalPendingError,
  ERROR_NAMES.UpdateRejectedError,
  'States.Timeout',
];

describe('ASL cluster-update', () => {
  const machine = loadAsl('clusterUpdate');
  const all = walkStates(machine);

  it('branches on every decision Prepare can return', () => {
    const decide = machine.States.DecideAction;
    expect(machine.StartAt).toBe('Prepare');
    expect(machine.States.Prepare.Next).toBe('DecideAction');
    const branches = Object.fromEntries(
      decide.Choices!.filter((c) => c.StringEquals).map((c) => [c.StringEquals, c.Next]),
    );
    expect(branches).toEqual({
      NOOP: 'NoChanges',
      SKIP: 'Skipped',
      UPDATE: 'RenderConfig',
      DECOMMISSION: 'ScaleDownControllers',
      PLAN: 'PlanUpdate',
    });
    expect(Object.keys(branches).sort()).toEqual(Object.values(DECISION).sort());
    expect(machine.States.NoChanges.Type).toBe('Succeed');
    expect(machine.States.Skipped.Type).toBe('Succeed');
  });

  it('uses every deploy stage, delete stage and manifest phase', () => {
    const values = (placeholder: string, field: string) =>
      lambdaTasks('clusterUpdate')
        .filter((s) => placeholderOf(s.state) === placeholder)
        .map((s) => (s.state.Parameters!.params as Record<string, string>)[field])
        .sort();
    expect(values(functionPlaceholder('DeployStacks'), 'stage')).toEqual([...DEPLOY_STAGES].sort());
    expect(values(functionPlaceholder('DeleteStacks'), 'stage')).toEqual([...DELETE_STAGES].sort());
    expect(values(functionPlaceholder('ApplyManifests'), 'phase')).toEqual([...MANIFEST_PHASES].sort());
  });

  it('rolls pools one at a time through the child state machine, handing over on CONTINUE', () => {
    const maps = all.filter((s) => s.state.Type === 'Map');
    expect(maps.map((m) => [m.name, m.state.ItemsPath])).toEqual([
      ['RollMasterPools', '$.step.rollPools'],
      ['RollWorkerPools', '$.step.rollPools'],
      // Karpenter pools roll after the manifests and their provisioners (CLM §7: masters, workers, manifests, Karpenter).
      ['RollKarpenterPools', '$.step.rollPools'],
      // Removed pools are drained by the same child, in removal mode, so the parent's history stays bounded.
      ['DrainRemovedPools', '$.step.drainPools'],
    ]);
    for (const { name, state } of maps) {
      expect({ name, MaxConcurrency: state.MaxConcurrency, ResultPath: state.ResultPath }).toEqual({
        name,
        MaxConcurrency: 1,
        ResultPath: null,
      });
      const removal = name === 'DrainRemovedPools';
      expect(state.ItemSelector).toEqual({
        'clusterId.$': '$.clusterId',
        'targetVersion.$': '$.run.targetVersion',
        'holder.$': '$.run.holder',
        'pool.$': '$$.Map.Item.Value',
        'options.$': '$.options',
        ...(removal ? { removal: true } : {}),
        // The pool's hand-over counter (LOOP_CAPS.poolHandOvers), not passed to the child.
        handOver: { count: 0 },
      });
      const inner = state.ItemProcessor!;
      const start = inner.States[inner.StartAt];
      expect(start.Resource).toBe(START_CHILD_SYNC);
      expect(start.Parameters!.StateMachineArn).toBe('${NodePoolRolloutStateMachineArn}');
      const inputKeys = Object.keys(start.Parameters!.Input).map((k) => k.replace(/\.\$$/, ''));
      expect(inputKeys.filter((k) => k !== 'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID').sort()).toEqual(
        Object.keys(RolloutInput.shape)
          .filter((k) => removal || k !== 'removal')
          .sort(),
      );
      expect(
        Object.keys(start.ResultSelector!)
          .map((k) => k.replace(/\.\$$/, ''))
          .every((k) => k in RolloutOutput.shape),
      ).toBe(true);
      const finished = inner.States[start.Next!];
      const held = finished.Choices!.find((c) => c.StringEquals === ROLLOUT_RESULT.HELD)!.Next!;
      const count = finished.Choices!.find((c) => c.StringEquals === ROLLOUT_RESULT.CONTINUE)!.Next!;
      const spent = finished.Choices![0].Next!;
      expect(finished.Choices).toEqual([
        {
          And: [
            { Variable: '$.rollout.status', StringEquals: ROLLOUT_RESULT.CONTINUE },
            { Variable: '$.handOver.count', NumericGreaterThanEquals: LOOP_CAPS.poolHandOvers },
          ],
          Next: spent,
        },
        { Variable: '$.rollout.status', StringEquals: ROLLOUT_RESULT.CONTINUE, Next: count },
        { Variable: '$.rollout.status', StringEquals: ROLLOUT_RESULT.HELD, Next: held },
      ]);
      // CONTINUE counts the hand-over, then starts a fresh child; at the cap the update hands over (HANDED_OVER).
      expect(inner.States[count]).toEqual(
        expect.objectContaining({
          Type: 'Pass',
          Parameters: { 'count.$': 'States.MathAdd($.handOver.count, 1)' },
          ResultPath: '$.handOver',
          Next: inner.StartAt,
        }),
      );
      expect(inner.States[spent]).toMatchObject({ Type: 'Fail', Error: ERROR_NAMES.UpdateHandedOverError });
      expect(inner.States[finished.Default!].Type).toBe('Succeed');
      // HELD ends the iteration with UpdateHeldError, which the Map catches first: the update stops, no problem.
      expect(inner.States[held]).toMatchObject({ Type: 'Fail', Error: 'UpdateHeldError' });
      expect(state.Catch![0]).toEqual({
        ErrorEquals: ['UpdateHeldError', ERROR_NAMES.UpdateHandedOverError],
        ResultPath: '$.error',
        Next: 'StopAtSafePoint',
      });
      const retried = start.Retry!.flatMap((r) => r.ErrorEquals);
      expect(retried).toEqual(expect.arrayContaining(SFN_SERVICE_ERRORS));
      expect(start.Retry!.every((r) => r.JitterStrategy === 'FULL')).toBe(true);
    }
  });

  it('runs the provisioning steps in CLM order', () => {
    const order: string[] = [];
    let name: string | undefined = 'RenderConfig';
    while (name && !order.includes(name)) {
      order.push(name);
      const state: AslState = machine.States[name];
      // follow the "done" edge: a Choice's Default, else Next
      name = state.Type === 'Choice' ? state.Default : state.Next;
    }
    expect(
      order.filter(
        (n) =>
          machine.States[n].Type === 'Task' || machine.States[n].Type === 'Map' || machine.States[n].Type === 'Succeed',
      ),
    ).toEqual([
      'RenderConfig',
      'DeployMainStack',
      'RenderClusterResources',
      'DeployCfManifestStacks',
      'DeployMasterPoolStacks',
      'WaitForApiServer',
      'RollMasterPools',
      'DeployWorkerPoolStacks',
      'RollWorkerPools',
      'PreApplyDeletions',
      'ApplyManifests',
      'PostApplyDeletions',
      'RemoveDeletedPools',
      'Finalize',
      'Updated',
    ]);
  });

  it('decommissions in CLM order', () => {
    const order: string[] = [];
    let name: string | undefined = 'ScaleDownControllers';
    while (name && !order.includes(name)) {
      order.push(name);
      const state: AslState = machine.States[name];
      name = state.Type === 'Choice' ? state.Default : state.Next;
    }
    expect(order.filter((n) => ['Task', 'Succeed'].includes(machine.States[n].Type))).toEqual([
      'ScaleDownControllers',
      'DeleteClusterStacks',
      'CleanUpLeftovers',
      'DeleteMainStack',
      'FinalizeDecommission',
      'Decommissioned',
    ]);
  });

  it('reads the EKS control plane of zalando-eks clusters only: after the main stack, and before decommissioning', () => {
    const eks = (choice: AslState) =>
      choice.Choices!.find(
        (c) => JSON.stringify(c).includes('"$.run.controlPlane"') && JSON.stringify(c).includes('"eks"'),
      );

    expect(eks(machine.States.IsMainStackDeployed)?.Next).toBe('ReadControlPlane');
    expect(machine.States.IsControlPlaneRead.Default).toBe('RenderClusterResources');
    expect(eks(machine.States.DecideAction)?.Next).toBe('ReadDecommissionControlPlane');
    expect(JSON.stringify(eks(machine.States.DecideAction))).toContain('"DECOMMISSION"');
  });

  it('ends a decommission at once, as a success, when EKS has no cluster (CLM: a successful no-op)', () => {
    const choice = machine.States.IsThereAControlPlane;
    const absent = choice.Choices!.find((c) => JSON.stringify(c).includes('"absent"'));

    expect(machine.States.ReadDecommissionControlPlane.Next).toBe('IsThereAControlPlane');
    expect(absent?.Next).toBe('FinalizeDecommission');
    expect(choice.Default).toBe('ScaleDownControllers');
  });

  it('records the problem before failing, and fails even if recording fails', () => {
    const record = machine.States.RecordProblem;
    expect(placeholderOf(record)).toBe(functionPlaceholder('RecordProblem'));
    expect(record.Next).toBe('Failed');
    expect(record.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.recordProblemError', Next: 'Failed' }]);
    const catchers = all
      .filter((s) => s.name !== 'RecordProblem')
      .flatMap((s) => s.state.Catch ?? [])
      .filter((c) => !c.ErrorEquals.includes('UpdateHeldError'))
      // The approval gate's ways of stopping (held, not failed) and of reviewing again.
      .filter((c) => !c.ErrorEquals.some((e) => APPROVAL_GATE_ERRORS.includes(e)));
    expect(catchers.length).toBeGreaterThan(10);
    expect(new Set(catchers.map((c) => c.Next))).toEqual(new Set(['RecordProblem']));
    expect(machine.States.UnknownDecision).toEqual(
      expect.objectContaining({ Type: 'Pass', ResultPath: '$.error', Next: 'RecordProblem' }),
    );
    expect(Object.values(ERROR_NAMES)).toContain(machine.States.UnknownDecision.Parameters!.Error);
  });
});
