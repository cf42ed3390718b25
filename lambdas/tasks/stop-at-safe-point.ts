import { causeMessage } from './record-problem';
import { HeldOutput } from '../contracts/cluster-update';
import { ERROR_NAMES } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { clusterUpdatePayload, runRef } from './step/payloads';
import { updateRun, type RunRef } from './step/run-record';
import { held } from '../core/events/update-events';
import type { HELD_REASONS } from '../contracts/update-events';
import { announce } from './events/announce';

const PORTS = { progress: 'write', clock: 'read', events: 'write' } as const;

/**
 * A roll stopped at a safe point (RollNodePool answered HELD: nothing in flight). End the update there, without a
 * problem: record where and why in the run, release the lease, and say which hold it was. An abort becomes a pause
 * (by the same person, for the same reason), so the next trigger does not start the update again; `clm resume`
 * continues it from the stored progress.
 */
export async function stopAtSafePoint(
  ref: RunRef,
  error: { readonly Error: string; readonly Cause?: string },
  ports: PortsFor<typeof PORTS>,
): Promise<HeldOutput> {
  const cause = causeMessage(error);
  const gate = APPROVAL_GATE[error.Error];
  if (gate) {
    await updateRun(ports, ref, (run) => ({ ...run, phase: `${gate.status}: ${cause}` }));
    return announceHeld(ports, ref, { status: gate.status, message: `${cause}; lease released, ${gate.next}` });
  }
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
  const next =
    status === 'BLOCKED' ? 'it continues once cluster_update_block is removed' : 'run `clm resume` to continue';
  return announceHeld(ports, ref, { status, message: `${cause}; lease released, ${next}` });
}

const HELD_REASON: Readonly<Record<HeldOutput['status'], (typeof HELD_REASONS)[number]>> = {
  PAUSED: 'paused',
  ABORTED: 'aborted',
  BLOCKED: 'blocked',
  AWAITING_APPROVAL: 'awaiting-approval',
  REJECTED: 'rejected',
  APPROVAL_LAPSED: 'approval-lapsed',
  HANDED_OVER: 'handed-over',
};

/** Held, sent while the run is still held by this execution; then the lease goes. */
async function announceHeld(ports: PortsFor<typeof PORTS>, ref: RunRef, output: HeldOutput): Promise<HeldOutput> {
  const origin = { ...ref, now: ports.clock.now() };
  await announce(ports, ref, [held(origin, { reason: HELD_REASON[output.status], message: output.message })]);
  await ports.progress.releaseLease(ref.clusterId, ref.holder);
  return output;
}

/**
 * The approval gate's ways of stopping an update before its first write (review-update.ts, await-approval.ts), and a
 * hand-over at a loop cap.
 */
const APPROVAL_GATE: Readonly<Record<string, { status: HeldOutput['status']; next: string }>> = {
  [ERROR_NAMES.ApprovalPendingError]: { status: 'AWAITING_APPROVAL', next: 'nothing was changed' },
  [ERROR_NAMES.UpdateRejectedError]: {
    status: 'REJECTED',
    next: 'nothing was changed; this plan stays rejected, a new config version asks again',
  },
  'States.Timeout': {
    status: 'APPROVAL_LAPSED',
    next: 'nobody decided in time, nothing was changed; the next run asks again',
  },
  // Not the approval gate's, but as plain: a loop of the execution reached its cap (LOOP_CAPS), nothing is held.
  [ERROR_NAMES.UpdateHandedOverError]: {
    status: 'HANDED_OVER',
    next: 'the next run (the dispatcher, or clm provision again) continues from the stored progress',
  },
};

export const task = defineTask({
  name: 'StopAtSafePoint',
  description: 'Ends an update held at a safe point (paused, aborted, blocked)',
  input: clusterUpdatePayload(),
  output: HeldOutput,
  ports: PORTS,
  step: (payload, ports) =>
    stopAtSafePoint(runRef(payload), payload.state.error ?? { Error: ERROR_NAMES.UpdateHeldError }, ports),
});
