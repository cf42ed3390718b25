// Static checks that tie both ASL files to the code: validator, placeholders, choices and vocabularies, the graph,
// payloads and result paths, polling loops. Error handling is in asl-error-handling.test.ts.
import aslValidator from 'asl-validator';
import {
  APPROVAL_STATUS,
  CONTROL_PLANE,
  DECISION,
  DELETE_STAGES,
  DEPLOY_STAGES,
  LOOP_CAPS,
  MANIFEST_PHASES,
  MAX_ROLLOUT_ITERATIONS,
  ROLLOUT_RESULT,
  STEP_STATUS,
} from '../../lambdas/contracts/status';
import {
  functionPlaceholder,
  placeholdersIn,
  stateMachinePlaceholder,
  substitutePlaceholders,
} from '../../lambdas/runtime/asl-files';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import {
  aslText,
  fakeArns,
  flattenRules,
  loadSubstitutedAsl,
  placeholderOf,
  reachable,
  MACHINES,
  lambdaTasks,
  ofType,
  states,
} from './asl-graph';

/** Where each Lambda task's result goes (lambdas/contracts/cluster-update.ts). */
const RESULT_PATHS: Record<string, string | null> = {
  PrepareFunctionArn: '$.run',
  RenderConfigFunctionArn: '$.render',
  PlanUpdateFunctionArn: '$.plan',
  ReviewUpdateFunctionArn: '$.approval',
  RenderClusterResourcesFunctionArn: '$.resources',
  DeployStacksFunctionArn: '$.step',
  ReadControlPlaneFunctionArn: '$.step',
  WaitForApiServerFunctionArn: '$.step',
  ApplyManifestsFunctionArn: '$.step',
  ApplyKarpenterPoolsFunctionArn: '$.step',
  RemoveDeletedPoolsFunctionArn: '$.step',
  ScaleDownControllersFunctionArn: '$.step',
  DeleteStacksFunctionArn: '$.step',
  CleanUpLeftoversFunctionArn: '$.step',
  RollNodePoolFunctionArn: '$.step',
  FinalizeFunctionArn: '$.final',
  StopAtSafePointFunctionArn: '$.held',
  RecordProblemFunctionArn: null,
};

describe.each(MACHINES)('ASL %s', (key) => {
  it('passes asl-validator with the placeholders substituted', () => {
    // Arrange
    const definition = loadSubstitutedAsl(key);
    // Act
    const result = aslValidator(definition, { checkArn: true, checkPaths: true });
    // Assert
    expect(result.errorsText('\n')).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('names only functions of the task catalogue and state machines of statemachines/', () => {
    const known = new Set([
      ...TASK_CATALOGUE.map((task) => functionPlaceholder(task.name)),
      ...MACHINES.map(stateMachinePlaceholder),
    ]);
    expect(placeholdersIn(aslText(key)).filter((p) => !known.has(p))).toEqual([]);
  });

  it('leaves no placeholder behind after substitution', () => {
    const text = aslText(key);
    expect(substitutePlaceholders(text, fakeArns(text))).not.toMatch(/\$\{/);
  });

  it('gives every Choice a Default', () => {
    for (const { name, state } of ofType(key, 'Choice')) {
      expect({ state: name, Default: typeof state.Default }).toEqual({ state: name, Default: 'string' });
    }
  });

  it('compares Choice variables only against the status vocabularies, the loop caps and no pool to roll', () => {
    const strings = new Set<string>([
      ...Object.values(DECISION),
      ...Object.values(STEP_STATUS),
      ...Object.values(ROLLOUT_RESULT),
      ...Object.values(APPROVAL_STATUS),
      ...Object.values(CONTROL_PLANE),
    ]);
    // Each counter and its cap in the code (history-bound.test.ts computes what they allow).
    const caps: Record<string, number> = {
      '$.step.iteration': MAX_ROLLOUT_ITERATIONS,
      '$.step.polls': LOOP_CAPS.polls,
      '$.render.windowWaits': LOOP_CAPS.windowWaits,
      '$.approvalWaits.count': LOOP_CAPS.approvalWaits,
      '$.handOver.count': LOOP_CAPS.poolHandOvers,
    };
    // Paths a Choice may test for presence: RenderConfig's resumeAt, the counters a task adds (absent in a state
    // written before they existed), and the controlPlane of Prepare and ReadControlPlane (zalando-eks only).
    const present = new Set([
      '$.render.resumeAt',
      '$.step.polls',
      '$.render.windowWaits',
      '$.step.controlPlane',
      '$.run.controlPlane',
    ]);
    for (const { name, state } of ofType(key, 'Choice')) {
      for (const rule of flattenRules(state.Choices ?? [])) {
        const operators = Object.keys(rule).filter((k) => !['Variable', 'Next'].includes(k));
        // The booleans: RenderConfig's approvalRequired (update_requires_approval) and whether it gave a resumeAt.
        const booleans = rule.Variable === '$.render.approvalRequired' ? '|BooleanEquals' : '';
        // Only clusters with Karpenter pools pass through ApplyKarpenterPools (absent in older runs' state).
        const karpenter = rule.Variable === '$.resources.karpenterPoolCount' ? '|NumericGreaterThan' : '';
        const presence =
          present.has(rule.Variable ?? '') || rule.Variable === '$.resources.karpenterPoolCount' ? '|IsPresent' : '';
        expect({ state: name, operators }).toEqual({
          state: name,
          operators: [
            expect.stringMatching(
              new RegExp(`^(StringEquals|NumericGreaterThanEquals|NumericEquals${booleans}${presence}${karpenter})$`),
            ),
          ],
        });
        if ('StringEquals' in rule)
          expect({ state: name, value: strings.has(rule.StringEquals as string) }).toEqual({
            state: name,
            value: true,
          });
        // NumericEquals 0: no pool to roll, or a roll step that already waited in process
        if ('NumericEquals' in rule)
          expect(rule).toEqual(
            expect.objectContaining({
              Variable: expect.stringMatching(/^\$\.step\.(rollPoolCount|waitSeconds)$/),
              NumericEquals: 0,
            }),
          );
        if ('NumericGreaterThanEquals' in rule)
          expect({ state: name, variable: rule.Variable, cap: rule.NumericGreaterThanEquals }).toEqual({
            state: name,
            variable: rule.Variable,
            cap: caps[rule.Variable ?? ''],
          });
      }
    }
  });

  it('has only existing transition targets and no unreachable state', () => {
    for (const walked of states(key)) {
      const scope = walked.scope;
      for (const target of [
        walked.state.Next,
        walked.state.Default,
        ...(walked.state.Choices ?? []).map((c) => c.Next),
        ...(walked.state.Catch ?? []).map((c) => c.Next),
      ]) {
        if (target === undefined) continue;
        expect({ from: walked.name, to: target, exists: target in scope.States }).toEqual({
          from: walked.name,
          to: target,
          exists: true,
        });
      }
      const live = reachable(scope);
      expect({ state: walked.name, reachable: live.has(walked.name) }).toEqual({ state: walked.name, reachable: true });
    }
  });

  it('passes every Lambda task the TaskPayload shape and stores its result where the contract says', () => {
    for (const { name, state } of lambdaTasks(key)) {
      expect({ state: name, Parameters: state.Parameters }).toEqual({
        state: name,
        Parameters: {
          'state.$': '$',
          'executionId.$': '$$.Execution.Id',
          'stateName.$': '$$.State.Name',
          params: expect.any(Object),
        },
      });
      expect({ state: name, ResultPath: state.ResultPath }).toEqual({
        state: name,
        ResultPath: RESULT_PATHS[placeholderOf(state)!],
      });
    }
  });

  it('passes stages and phases from the contract vocabularies to the tasks that understand them', () => {
    const allowed: Record<string, { field: string; values: readonly string[] }> = {
      [functionPlaceholder('DeployStacks')]: { field: 'stage', values: DEPLOY_STAGES },
      [functionPlaceholder('DeleteStacks')]: { field: 'stage', values: DELETE_STAGES },
      [functionPlaceholder('ApplyManifests')]: { field: 'phase', values: MANIFEST_PHASES },
    };
    for (const { name, state } of lambdaTasks(key)) {
      const params = state.Parameters!.params as Record<string, unknown>;
      const rule = allowed[placeholderOf(state)!];
      if (!rule) {
        expect({ state: name, params }).toEqual({ state: name, params: {} });
        continue;
      }
      expect({ state: name, keys: Object.keys(params) }).toEqual({ state: name, keys: [rule.field] });
      expect(rule.values).toContain(params[rule.field]);
    }
  });

  it('polls with Task → Choice on $.step.status → Wait $.step.waitSeconds → the same Task', () => {
    // WaitForWindow and WaitForMaintenanceWindow wait for a timestamp instead (maintenance windows, in the rollout
    // and before the update's first write; node-pool-rollout-asl.test.ts, window-gate-run.test.ts).
    const timestamped = new Set(['WaitForWindow', 'WaitForMaintenanceWindow']);
    const polling = states(key).filter((s) => s.state.Type === 'Wait' && !timestamped.has(s.name));
    for (const { name, state, scope } of polling) {
      expect({ wait: name, SecondsPath: state.SecondsPath }).toEqual({ wait: name, SecondsPath: '$.step.waitSeconds' });
      const task = scope.States[state.Next!];
      expect({ wait: name, next: task.Type, resultPath: task.ResultPath }).toEqual({
        wait: name,
        next: 'Task',
        resultPath: '$.step',
      });
      const choice = scope.States[task.Next!];
      expect(choice.Type).toBe('Choice');
      // entered when the step is not done: either an IN_PROGRESS rule or the Default after the DONE/hand-over rules
      const byRule = flattenRules(choice.Choices!).filter((r) => r.Next === name);
      const entered =
        byRule.length > 0
          ? byRule.map((r) => `${r.Variable}=${String(r.StringEquals)}`)
          : [choice.Default === name ? 'Default' : 'never'];
      expect({ wait: name, entered }).toEqual({
        wait: name,
        entered: [byRule.length > 0 ? `$.step.status=${STEP_STATUS.IN_PROGRESS}` : 'Default'],
      });
    }
    for (const { name, state, scope } of lambdaTasks(key).filter((s) => s.state.ResultPath === '$.step')) {
      const choice = scope.States[state.Next!];
      const variables = flattenRules(choice.Choices ?? []).map((r) => r.Variable);
      expect({ task: name, next: choice.Type, checksStatus: variables.includes('$.step.status') }).toEqual({
        task: name,
        next: 'Choice',
        checksStatus: true,
      });
    }
  });
});
