/** Sends back the task token of a state waiting with `.waitForTaskToken` (the approval gate's AwaitApproval). */
export interface TaskTokens {
  /** The waiting state succeeds with `output`. False when the wait is over already (timed out, execution stopped). */
  succeed(token: string, output: unknown): Promise<boolean>;
  /** The waiting state fails with `error` (matched by the state's Catch) and `cause`. False as for succeed. */
  fail(token: string, error: string, cause: string): Promise<boolean>;
}
