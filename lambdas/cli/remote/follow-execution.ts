import { ASL_FILES, readAsl } from '../../runtime/asl-files';
import { findTask } from '../../tasks/catalogue';
import type { AnyTask } from '../../tasks/define-task';
import type { ExecutionHistory, ExecutionView } from '../../ports/execution-history';
import { progressLine, rollEta, type RollEta } from '../provision/progress-line';

export interface FollowOptions {
  readonly history: ExecutionHistory;
  readonly print: (line: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  /** Between two reads of a running execution's history. */
  readonly pollMs: number;
}

interface AslState {
  readonly Type: string;
  readonly Resource?: string;
  readonly ItemProcessor?: { readonly States: Record<string, AslState> };
}

/** Task state name → its task, from both ASL files (a state's Resource names `${<Task>FunctionArn}`). */
function taskStates(): ReadonlyMap<string, AnyTask> {
  const map = new Map<string, AnyTask>();
  const visit = (states: Record<string, AslState>) => {
    for (const [name, state] of Object.entries(states)) {
      const task = /^\$\{(\w+)FunctionArn\}$/.exec(state.Resource ?? '')?.[1];
      const found = task ? findTask(task) : undefined;
      if (found) map.set(name, found);
      if (state.ItemProcessor) visit(state.ItemProcessor.States);
    }
  };
  for (const key of Object.keys(ASL_FILES) as (keyof typeof ASL_FILES)[])
    visit((JSON.parse(readAsl(key)) as { States: Record<string, AslState> }).States);
  return map;
}

let tasks: ReadonlyMap<string, AnyTask> | undefined;

/**
 * Follow a deployed execution until it ends, printing the same progress line a local run prints for every task that
 * finished (`  [  1m05s] RollStep: default-worker: 1/2 nodes replaced; …`), the rollout children's included (followed
 * while the parent waits for them). Returns how the execution ended.
 */
export async function followExecution(
  executionArn: string,
  options: FollowOptions,
  eta: RollEta = rollEta(),
  startedAt?: number,
): Promise<ExecutionView> {
  tasks ??= taskStates();
  const start = startedAt ?? (await options.history.describe(executionArn)).startedAt;
  let after = 0;
  let state: string | undefined;
  for (;;) {
    const view = await options.history.describe(executionArn);
    for (const event of await options.history.events(executionArn, after)) {
      after = event.id;
      if (event.stateName) state = event.stateName;
      const task = state ? tasks.get(state) : undefined;
      if (event.type === 'LambdaFunctionSucceeded' && task && event.output) {
        const output = JSON.parse(event.output) as unknown;
        options.print(
          progressLine({ executionId: executionArn, stateName: state!, task, output }, event.timestamp - start, eta),
        );
      }
      if (event.childExecutionArn) await followExecution(event.childExecutionArn, options, eta, start);
    }
    if (view.status !== 'RUNNING') return view;
    await options.sleep(options.pollMs);
  }
}
