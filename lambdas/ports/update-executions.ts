import type { ExecutionOutcome } from '../core/dispatch/fleet-state';
import type { StartResult } from '../core/dispatch/record-start';

/** One cluster-update execution to start. */
export interface ExecutionRequest {
  /** Deterministic per cluster, target version and attempt (executionName). */
  readonly name: string;
  /** The state machine input (contracts ClusterUpdateInput). */
  readonly input: Readonly<Record<string, unknown>>;
}

/** What starting a request under a taken name gave: that name belongs to an execution that has ended. */
export type StartAttempt = StartResult | { readonly how: 'name-taken'; readonly name: string };

/** The cluster-update executions (Step Functions in AWS, the in-process runner locally). */
export interface UpdateExecutions {
  /**
   * Start an execution. The same name already running is harmless (`already-running`); a name used by
   * an execution that has ended is `name-taken` (start the next attempt instead).
   */
  start(request: ExecutionRequest): Promise<StartAttempt>;
  /** Continue a dead execution where it stopped; when that is not possible, start `fallback` instead. */
  resume(
    execution: { readonly name: string; readonly arn?: string },
    fallback: ExecutionRequest,
  ): Promise<StartAttempt>;
  /** Cluster-update executions running now, whoever started them (the concurrency cap counts these). */
  countRunning(): Promise<number>;
  /** How the named executions stand; unknown names are NOT_FOUND. */
  describe(executions: readonly { readonly name: string; readonly arn?: string }[]): Promise<ExecutionOutcome[]>;
}
