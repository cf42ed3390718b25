import { causeMessage } from './record-problem';
import { HeldOutput } from '../contracts/cluster-update';
import { ERROR_NAMES } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { clusterUpdatePayload, runRef } from './kit/payloads';
import { updateRun, type RunRef } from './kit/run-record';

const PORTS = { progress: 'write', clock: 'read' } as const;

/**
 * A roll stopped at a safe point (RollNodePool answered HELD: nothing in flight). End the update there, without a
 * problem: record where and why in the run, release the lease, and say which hold it was. An abort becomes a pause
 * (by the same person, for the same reason), so the next trigger does not start the update again; `clm resume`
 * continues it from the stored progress.
 */
export async function stopAtSafePoint(ref: RunRef, cause: string, ports: PortsFor<typeof PORTS>): Promise<HeldOutput> {
  const controls = await ports.progress.getControls(ref.clusterId);
  const status = controls?.abortRequested ? 'ABORTED' : controls?.paused ? 'PAUSED' : 'BLOCKED';
  if (status === 'ABORTED') {
    const { abortRequested: _aborted, ...rest } = controls!;
    await ports.progress.putControls(ref.clusterId, {
      ...rest,
      paused: true,
      reason: `aborted${controls?.reason ? `: ${controls.reason}` : ''}`,
    });
  }
  await updateRun(ports, ref, (run) => ({ ...run, phase: `${status}: ${cause}` }));
  await ports.progress.releaseLease(ref.clusterId, ref.holder);
  const next =
    status === 'BLOCKED' ? 'it continues once cluster_update_block is removed' : 'run `clm resume` to continue';
  return { status, message: `${cause}; lease released, ${next}` };
}

export const task = defineTask({
  name: 'StopAtSafePoint',
  description: 'Ends an update held at a safe point (paused, aborted, blocked)',
  input: clusterUpdatePayload(),
  output: HeldOutput,
  ports: PORTS,
  step: (payload, ports) =>
    stopAtSafePoint(
      runRef(payload),
      causeMessage(payload.state.error ?? { Error: ERROR_NAMES.UpdateHeldError }),
      ports,
    ),
});
