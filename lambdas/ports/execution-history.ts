/** One event of an execution's history, as much of it as following an execution needs. */
export interface HistoryEventView {
  readonly id: number;
  /** Step Functions' event type: `TaskStateEntered`, `LambdaFunctionSucceeded`, `TaskSubmitted`, … */
  readonly type: string;
  /** ms since the epoch */
  readonly timestamp: number;
  /** The state a `*StateEntered` event names. */
  readonly stateName?: string;
  /** A Lambda task's result (`LambdaFunctionSucceeded`), as JSON text. */
  readonly output?: string;
  /** The child execution a `states:startExecution.sync` task started (`TaskSubmitted`). */
  readonly childExecutionArn?: string;
}

export interface ExecutionView {
  readonly status: string;
  /** ms since the epoch */
  readonly startedAt: number;
  readonly output?: string;
  readonly error?: string;
  readonly cause?: string;
}

/** Reading a running execution (Step Functions' history), to follow it from the CLI. */
export interface ExecutionHistory {
  /** The events after `afterId`, oldest first. */
  events(executionArn: string, afterId: number): Promise<readonly HistoryEventView[]>;
  describe(executionArn: string): Promise<ExecutionView>;
}
