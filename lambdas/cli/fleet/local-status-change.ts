import type { ExecutionStatusChange } from '../../contracts/triggers';
import { arnOf, type LocalExecution } from '../../runtime/local/local-executions';

/**
 * What Step Functions' "Execution Status Change" event would carry for an execution `clm serve` runs in process: its
 * name, status, local ARN, input and (ended) output, error and cause.
 */
export function localStatusChange(
  execution: LocalExecution,
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED',
  output?: unknown,
): ExecutionStatusChange {
  return {
    name: execution.name,
    status,
    executionArn: arnOf(execution.name),
    input: JSON.stringify(execution.input),
    ...(output !== undefined && status !== 'RUNNING' ? { output: JSON.stringify(output) } : {}),
    ...(status !== 'RUNNING' && execution.error ? { error: execution.error } : {}),
    ...(status !== 'RUNNING' && execution.cause ? { cause: execution.cause } : {}),
  };
}
