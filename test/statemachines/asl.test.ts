// Static checks that tie the ASL files to the code: validator, placeholders, error names, vocabularies, graph.
import aslValidator from 'asl-validator';
import { ERROR_NAMES, RETRYABLE_ERROR_NAMES } from '../../lambdas/shared/errors';
import {
  DECISION,
  DELETE_STAGES,
  DEPLOY_STAGES,
  MANIFEST_PHASES,
  MAX_ROLLOUT_ITERATIONS,
  ROLLOUT_RESULT,
  STEP_STATUS,
} from '../../lambdas/contracts/status';
import { RolloutInput, RolloutOutput } from '../../lambdas/contracts/cluster-update';
import {
  ASL_FILES,
  functionPlaceholder,
  placeholdersIn,
  stateMachinePlaceholder,
  substitutePlaceholders,
} from '../../lambdas/runtime/asl-files';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import type { StateMachineKey } from '../../lambdas/runtime/asl-files';
import {
  aslText,
  fakeArns,
  flattenRules,
  loadAsl,
  loadSubstitutedAsl,
  placeholderOf,
  reachable,
  walkStates,
} from './asl-graph';
import type { AslState, WalkedState } from './asl-graph';

const MACHINES = Object.keys(ASL_FILES) as StateMachineKey[];
const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];
const SFN_SERVICE_ERRORS = ['StepFunctions.ExecutionLimitExceeded', 'StepFunctions.SdkClientException'];
/** Predefined Step Functions error codes (ASL spec + AWS additions) that may appear in ErrorEquals. */
const STATES_ERRORS = [
  'States.ALL',
  'States.TaskFailed',
  'States.Timeout',
  'States.HeartbeatTimeout',
  'States.Permissions',
  'States.Runtime',
  'States.DataLimitExceeded',
  'States.ResultPathMatchFailure',
  'States.ParameterPathFailure',
  'States.BranchFailed',
  'States.NoChoiceMatched',
  'States.IntrinsicFailure',
  'States.ExceedToleratedFailureThreshold',
  'States.ItemReaderFailed',
  'States.ResultWriterFailed',
  'States.QueryEvaluationError',
];
const START_CHILD_SYNC = 'arn:aws:states:::states:startExecution.sync:2';

/** Where each Lambda task's result goes (lambdas/contracts/cluster-update.ts). */
const RESULT_PATHS: Record<string, string | null> = {
  PrepareFunctionArn: '$.run',
  RenderConfigFunctionArn: '$.render',
  RenderClusterResourcesFunctionArn: '$.resources',
  DeployStacksFunctionArn: '$.step',
  WaitForApiServerFunctionArn: '$.step',
  ApplyManifestsFunctionArn: '$.step',
  RemoveDeletedPoolsFunctionArn: '$.step',
  ScaleDownControllersFunctionArn: '$.step',
  DeleteStacksFunctionArn: '$.step',
  RollNodePoolFunctionArn: '$.step',
  FinalizeFunctionArn: '$.final',
  RecordProblemFunctionArn: null,
};

function states(key: StateMachineKey): WalkedState[] {
  return walkStates(loadAsl(key));
}

function ofType(key: StateMachineKey, type: string): WalkedState[] {
  return states(key).filter((s) => s.state.Type === type);
}

function lambdaTasks(key: StateMachineKey): WalkedState[] {
  return ofType(key, 'Task').filter((s) => placeholderOf(s.state)?.endsWith('FunctionArn'));
}

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

  it('names only exported errors, States.*, Lambda.* or StepFunctions.* in ErrorEquals', () => {
    const ours = new Set<string>(Object.values(ERROR_NAMES));
    const names = states(key).flatMap(({ state }) =>
      [...(state.Retry ?? []), ...(state.Catch ?? [])].flatMap((r) => r.ErrorEquals),
    );
    expect(names.length).toBeGreaterThan(0);
    const unknown = names.filter(
      (name) =>
        !ours.has(name) &&
        !STATES_ERRORS.includes(name) &&
        !LAMBDA_SERVICE_ERRORS.includes(name) &&
        !SFN_SERVICE_ERRORS.includes(name),
    );
    expect(unknown).toEqual([]);
  });

  it('retries only retryable errors of ours, never a catch-all', () => {
    const ours = new Set<string>(Object.values(ERROR_NAMES));
    for (const { name, state } of states(key)) {
      for (const retrier of state.Retry ?? []) {
        const offending = retrier.ErrorEquals.filter(
          (e) => (ours.has(e) && !RETRYABLE_ERROR_NAMES.includes(e as never)) || e.startsWith('States.'),
        );
        expect({ state: name, offending }).toEqual({ state: name, offending: [] });
      }
    }
  });

  it('gives every Choice a Default', () => {
    for (const { name, state } of ofType(key, 'Choice')) {
      expect({ state: name, Default: typeof state.Default }).toEqual({ state: name, Default: 'string' });
    }
  });

  it('gives every Task a Retry and a Catch on itself or its enclosing Map, into the failure path', () => {
    const tasks = ofType(key, 'Task');
    expect(tasks.length).toBeGreaterThan(0);
    for (const { name, state, enclosingMap } of tasks) {
      expect({ state: name, retriers: (state.Retry ?? []).length > 0 }).toEqual({ state: name, retriers: true });
      const catchers = state.Catch ?? enclosingMap?.state.Catch ?? [];
      const catchAll = catchers.find((c) => c.ErrorEquals.includes('States.ALL'));
      expect({ state: name, catchAll: Boolean(catchAll) }).toEqual({ state: name, catchAll: true });
    }
  });

  it('retries Lambda service errors with FULL jitter and our retryable errors with backoff on every Lambda task', () => {
    for (const { name, state } of lambdaTasks(key)) {
      const service = state.Retry!.find((r) => LAMBDA_SERVICE_ERRORS.every((e) => r.ErrorEquals.includes(e)));
      expect({
        state: name,
        service: service && { jitter: service.JitterStrategy, backoff: (service.BackoffRate ?? 2) > 1 },
      }).toEqual({ state: name, service: { jitter: 'FULL', backoff: true } });
      const ours = state.Retry!.find((r) => RETRYABLE_ERROR_NAMES.every((e) => r.ErrorEquals.includes(e)));
      expect({ state: name, ours: ours && (ours.BackoffRate ?? 2) > 1 && (ours.MaxAttempts ?? 3) > 0 }).toEqual({
        state: name,
        ours: true,
      });
    }
  });

  it('compares Choice variables only against the status vocabularies and MAX_ROLLOUT_ITERATIONS', () => {
    const strings = new Set<string>([
      ...Object.values(DECISION),
      ...Object.values(STEP_STATUS),
      ...Object.values(ROLLOUT_RESULT),
    ]);
    for (const { name, state } of ofType(key, 'Choice')) {
      for (const rule of flattenRules(state.Choices ?? [])) {
        const operators = Object.keys(rule).filter((k) => !['Variable', 'Next'].includes(k));
        expect({ state: name, operators }).toEqual({
          state: name,
          operators: [expect.stringMatching(/^(StringEquals|NumericGreaterThanEquals)$/)],
        });
        if ('StringEquals' in rule)
          expect({ state: name, value: strings.has(rule.StringEquals as string) }).toEqual({
            state: name,
            value: true,
          });
        if ('NumericGreaterThanEquals' in rule) {
          expect(rule).toEqual(
            expect.objectContaining({ Variable: '$.step.iteration', NumericGreaterThanEquals: MAX_ROLLOUT_ITERATIONS }),
          );
        }
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
    for (const { name, state, scope } of states(key).filter((s) => s.state.Type === 'Wait')) {
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

  it('fails with the original error name and cause', () => {
    const fails = ofType(key, 'Fail');
    expect(fails.length).toBeGreaterThan(0);
    for (const { name, state } of fails) {
      expect({ name, ErrorPath: state.ErrorPath, CausePath: state.CausePath }).toEqual({
        name,
        ErrorPath: '$.error.Error',
        CausePath: '$.error.Cause',
      });
    }
    for (const { name, state } of states(key)) {
      for (const catcher of state.Catch ?? []) {
        // RecordProblem's own failure must not overwrite the error being recorded; every other catcher stores it at $.error.
        const expected = name === 'RecordProblem' ? '$.recordProblemError' : '$.error';
        expect({ state: name, ResultPath: catcher.ResultPath }).toEqual({ state: name, ResultPath: expected });
      }
    }
  });
});

describe('ASL cluster-update', () => {
  const machine = loadAsl('clusterUpdate');
  const all = walkStates(machine);

  it('branches on every decision Prepare can return', () => {
    const decide = machine.States.DecideAction;
    expect(machine.StartAt).toBe('Prepare');
    expect(machine.States.Prepare.Next).toBe('DecideAction');
    const branches = Object.fromEntries(decide.Choices!.map((c) => [c.StringEquals, c.Next]));
    expect(branches).toEqual({
      NOOP: 'NoChanges',
      SKIP: 'Skipped',
      UPDATE: 'RenderConfig',
      DECOMMISSION: 'ScaleDownControllers',
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
      ['RollMasterPools', '$.resources.rollMasterPools'],
      ['RollWorkerPools', '$.resources.rollWorkerPools'],
    ]);
    for (const { name, state } of maps) {
      expect({ name, MaxConcurrency: state.MaxConcurrency, ResultPath: state.ResultPath }).toEqual({
        name,
        MaxConcurrency: 1,
        ResultPath: null,
      });
      expect(state.ItemSelector).toEqual({
        'clusterId.$': '$.clusterId',
        'targetVersion.$': '$.run.targetVersion',
        'holder.$': '$.run.holder',
        'pool.$': '$$.Map.Item.Value',
        'options.$': '$.options',
      });
      const inner = state.ItemProcessor!;
      const start = inner.States[inner.StartAt];
      expect(start.Resource).toBe(START_CHILD_SYNC);
      expect(start.Parameters!.StateMachineArn).toBe('${NodePoolRolloutStateMachineArn}');
      const inputKeys = Object.keys(start.Parameters!.Input).map((k) => k.replace(/\.\$$/, ''));
      expect(inputKeys.filter((k) => k !== 'AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID').sort()).toEqual(
        Object.keys(RolloutInput.shape).sort(),
      );
      expect(
        Object.keys(start.ResultSelector!)
          .map((k) => k.replace(/\.\$$/, ''))
          .every((k) => k in RolloutOutput.shape),
      ).toBe(true);
      const finished = inner.States[start.Next!];
      expect(finished.Choices).toEqual([
        { Variable: '$.rollout.status', StringEquals: ROLLOUT_RESULT.CONTINUE, Next: inner.StartAt },
      ]);
      expect(inner.States[finished.Default!].Type).toBe('Succeed');
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
      'DeleteMainStack',
      'FinalizeDecommission',
      'Decommissioned',
    ]);
  });

  it('records the problem before failing, and fails even if recording fails', () => {
    const record = machine.States.RecordProblem;
    expect(placeholderOf(record)).toBe(functionPlaceholder('RecordProblem'));
    expect(record.Next).toBe('Failed');
    expect(record.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.recordProblemError', Next: 'Failed' }]);
    const catchers = all.filter((s) => s.name !== 'RecordProblem').flatMap((s) => s.state.Catch ?? []);
    expect(catchers.length).toBeGreaterThan(10);
    expect(new Set(catchers.map((c) => c.Next))).toEqual(new Set(['RecordProblem']));
    expect(machine.States.UnknownDecision).toEqual(
      expect.objectContaining({ Type: 'Pass', ResultPath: '$.error', Next: 'RecordProblem' }),
    );
    expect(Object.values(ERROR_NAMES)).toContain(machine.States.UnknownDecision.Parameters!.Error);
  });
});

describe('ASL node-pool-rollout', () => {
  const machine = loadAsl('nodePoolRollout');

  it('loops RollStep → RollStepResult → WaitForNodes until DONE or the iteration cap', () => {
    expect(machine.StartAt).toBe('RollStep');
    expect(machine.States.RollStep.Next).toBe('RollStepResult');
    expect(machine.States.RollStepResult.Choices).toEqual([
      { Variable: '$.step.status', StringEquals: STEP_STATUS.DONE, Next: 'RolloutDone' },
      { Variable: '$.step.iteration', NumericGreaterThanEquals: MAX_ROLLOUT_ITERATIONS, Next: 'HandOver' },
    ]);
    expect(machine.States.RollStepResult.Default).toBe('WaitForNodes');
    expect(machine.States.WaitForNodes.Next).toBe('RollStep');
    expect(machine.States.RollStep.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RolloutFailed' },
    ]);
  });

  it('returns the RolloutOutput contract from both end states', () => {
    for (const [name, status] of [
      ['RolloutDone', ROLLOUT_RESULT.DONE],
      ['HandOver', ROLLOUT_RESULT.CONTINUE],
    ] as const) {
      const state = machine.States[name];
      expect(state).toEqual(expect.objectContaining({ Type: 'Pass', End: true }));
      const keys = Object.keys(state.Parameters!)
        .map((k) => k.replace(/\.\$$/, ''))
        .sort();
      expect(keys).toEqual(Object.keys(RolloutOutput.shape).sort());
      expect(state.Parameters!.status).toBe(status);
    }
  });

  it('stays below 20,000 history events before handing over (9 events per quiet iteration)', () => {
    // Per iteration: RollStep = TaskStateEntered, LambdaFunctionScheduled, LambdaFunctionStarted,
    // LambdaFunctionSucceeded, TaskStateExited (5); RollStepResult = ChoiceStateEntered/Exited (2);
    // WaitForNodes = WaitStateEntered/Exited (2). Plus ExecutionStarted, the end Pass (2) and ExecutionSucceeded.
    const eventsPerIteration = 5 + 2 + 2;
    const fixed = 1 + 2 + 1;
    expect(eventsPerIteration * MAX_ROLLOUT_ITERATIONS + fixed).toBeLessThan(20_000);
  });
});
