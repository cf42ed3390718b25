import * as z from '../shared/zod';
import { problemFromError } from '../core/status/problems';
import { defineTask, type PortsFor } from './define-task';
import { recordClusterProblem } from './step/cluster-status';
import { clusterUpdatePayload } from './step/payloads';
import { updateRun } from './step/run-record';
import { updateFailed } from '../core/events/update-events';
import { announce } from './events/announce';

const PORTS = { registry: 'write', progress: 'write', clock: 'read', events: 'write' } as const;

export interface FailureInput {
  readonly clusterId: string;
  readonly targetVersion?: string;
  readonly holder?: string;
  readonly executionId: string;
  readonly error: { readonly Error: string; readonly Cause?: string };
}

/**
 * The failure path: record the problem (capped, deduplicated) in the status of the registry and the
 * progress store, keep `next_version` so the next run resumes, mark the run failed, release the lease.
 * Never throws for bookkeeping it cannot do: the execution is failing anyway and must say why.
 */
export async function recordProblem(input: FailureInput, ports: PortsFor<typeof PORTS>): Promise<{ problem: string }> {
  const message = causeMessage(input.error);
  // Without a Cause the message is the error name itself: do not say it twice ("States.Timeout: States.Timeout").
  const problem = problemFromError(
    input.error.Cause ? { name: input.error.Error, message } : { message },
    input.executionId,
  );
  const now = ports.clock.now();
  const clusters = await ports.registry.listClusters().catch(() => []);
  // The registry holds the status when it can: its problems are the list to append to; the store mirrors it.
  const cluster = clusters.find((c) => c.id === input.clusterId);
  await recordClusterProblem(ports, input.clusterId, cluster, problem, now);
  const ref = {
    clusterId: input.clusterId,
    targetVersion: input.targetVersion ?? '',
    holder: input.holder ?? input.executionId,
  };
  if (input.targetVersion && input.holder)
    await updateRun(ports, ref, (run) => ({ ...run, phase: `Failed: ${problem.title}` })).catch(() => undefined);
  // Sent even when the run never started (Prepare failed): the failure is news. A sink that fails does not hide it.
  const failed = updateFailed({ ...ref, now }, { error: input.error.Error, cause: message });
  await announce(ports, ref, [failed]).catch(() => undefined);
  if (input.targetVersion && input.holder) await ports.progress.releaseLease(input.clusterId, input.holder);
  return { problem: problem.title };
}

/**
 * Lambda puts `{errorType, errorMessage, trace}` JSON in Cause; a failed child execution (`.sync`) reaches
 * the parent as States.TaskFailed with the child's `{Error, Cause}` as JSON; the local runner gives a plain
 * message. Unwrap until the innermost message.
 */
export function causeMessage(error: { readonly Error: string; readonly Cause?: string }): string {
  if (!error.Cause) return error.Error;
  try {
    const parsed = JSON.parse(error.Cause) as { errorMessage?: unknown; Error?: unknown; Cause?: unknown };
    if (typeof parsed.errorMessage === 'string') return parsed.errorMessage;
    if (typeof parsed.Error === 'string') {
      return causeMessage({
        Error: parsed.Error,
        ...(typeof parsed.Cause === 'string' ? { Cause: parsed.Cause } : {}),
      });
    }
  } catch {
    // not JSON: a plain message
  }
  return error.Cause;
}

export const task = defineTask({
  name: 'RecordProblem',
  description: 'Records a failure as a cluster problem, releases the lease',
  input: clusterUpdatePayload(),
  output: z.object({ problem: z.string() }),
  ports: PORTS,
  step: ({ state, executionId }, ports) =>
    recordProblem(
      {
        clusterId: state.clusterId,
        ...(state.run ? { targetVersion: state.run.targetVersion, holder: state.run.holder } : {}),
        executionId,
        error: state.error ?? { Error: 'UnknownError', Cause: 'the execution failed without an error in $.error' },
      },
      ports,
    ),
});
