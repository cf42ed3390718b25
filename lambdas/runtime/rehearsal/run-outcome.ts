import type { ClusterUpdateOutput } from '../../contracts/cluster-update';
import type { PoolProgress } from '../../core/model/run';
import type { RunObservation } from '../../core/rehearsal/rehearsal-report';
import type { ExecutionResult } from '../local/run-cluster-update';

/**
 * How a run of the update in a simulated world ended, for its observation: an update that stopped before its end
 * (held: a roll waiting for launches EC2 refuses over the vCPU quota handed over to a next run) did not succeed, and
 * says why with the messages of the pools it left unfinished.
 */
export function runOutcome(
  result: Pick<ExecutionResult, 'status' | 'error'>,
  output: ClusterUpdateOutput | undefined,
  pools: Readonly<Record<string, Pick<PoolProgress, 'status' | 'message'>>>,
): Pick<RunObservation, 'status' | 'error'> {
  const unfinished = output?.held
    ? [
        output.held.message,
        ...Object.values(pools).flatMap((p) => (p.status === 'done' || !p.message ? [] : [p.message])),
      ]
    : [];
  const error = result.error ? `${result.error.Error}: ${result.error.Cause ?? ''}`.trim() : undefined;
  if (error) return { status: 'FAILED', error };
  if (unfinished.length) return { status: 'FAILED', error: `the update did not finish: ${unfinished.join('; ')}` };
  return { status: result.status };
}
