/**
 * The deployed state machines as an operator sees them, through the Step Functions API only: the executions of a
 * state machine, and an execution's history as the console's "Events" and "Graph" views show it: each state entered,
 * how it ended, the task's output message, and a failed task's error by name.
 */
import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  type ExecutionListItem,
  type HistoryEvent,
  type SFNClient,
} from '@aws-sdk/client-sfn';

export async function listExecutions(sfn: SFNClient, stateMachineArn: string): Promise<ExecutionListItem[]> {
  const all: ExecutionListItem[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(new ListExecutionsCommand({ stateMachineArn, nextToken, maxResults: 100 }));
    all.push(...(page.executions ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return all.sort((a, b) => (a.startDate?.getTime() ?? 0) - (b.startDate?.getTime() ?? 0));
}

/** The input's clusterId of an execution (what the dispatcher started it for). */
export async function executionInput(sfn: SFNClient, executionArn: string): Promise<Record<string, unknown>> {
  const described = await sfn.send(new DescribeExecutionCommand({ executionArn }));
  return JSON.parse(described.input ?? '{}') as Record<string, unknown>;
}

export interface StateView {
  readonly state: string;
  /** Succeeded, Failed (the error went to a Catch or ended the run), or Running. */
  readonly status: 'Succeeded' | 'Failed' | 'Running';
  /** A task's `message` (every CLM task output has one), or a Task's submitted work. */
  readonly message?: string;
  /** The error a failed task raised, as Step Functions names it (the Node.js error's name). */
  readonly error?: string;
}

/** Every event of an execution (GetExecutionHistory, all pages). */
export async function historyEvents(sfn: SFNClient, executionArn: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(
      new GetExecutionHistoryCommand({ executionArn, nextToken, maxResults: 1000, includeExecutionData: true }),
    );
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return events;
}

/**
 * The console's view of a history: one row per state entered, in order. A task's row carries its output's
 * `message`; a failed task's row the error's name (`error`; the Lambda's errorType, from the cause's JSON when the
 * error field is a generic one).
 */
export function consoleView(events: readonly HistoryEvent[]): StateView[] {
  const rows: { state: string; status: StateView['status']; message?: string; error?: string }[] = [];
  const open = () => rows[rows.length - 1];
  for (const event of events) {
    const entered = event.stateEnteredEventDetails;
    if (entered?.name) {
      rows.push({ state: entered.name, status: 'Running' });
      continue;
    }
    const row = open();
    if (!row) continue;
    const output = event.lambdaFunctionSucceededEventDetails?.output ?? event.taskSucceededEventDetails?.output;
    if (output) {
      const message = messageOf(output);
      if (message) row.message = message;
    }
    const failed =
      event.lambdaFunctionFailedEventDetails ??
      event.taskFailedEventDetails ??
      event.lambdaFunctionTimedOutEventDetails ??
      event.taskTimedOutEventDetails;
    if (failed) {
      row.status = 'Failed';
      row.error = errorName(failed.error, failed.cause);
    }
    if (event.stateExitedEventDetails && row.status === 'Running') row.status = 'Succeeded';
  }
  return rows;
}

function messageOf(output: string): string | undefined {
  try {
    const parsed = JSON.parse(output) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** Step Functions' error, or the errorType inside a Lambda cause when the error is the runtime's generic one. */
export function errorName(error: string | undefined, cause: string | undefined): string {
  if (error && error !== 'Runtime.HandlerError' && error !== 'Error') return error;
  try {
    const parsed = JSON.parse(cause ?? '') as { errorType?: unknown };
    if (typeof parsed.errorType === 'string') return parsed.errorType;
  } catch {
    // not JSON: keep Step Functions' error
  }
  return error ?? 'unknown';
}
