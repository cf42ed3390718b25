import * as z from '../shared/zod';
import { ApprovalOutput, LOCAL_TASK_TOKEN_PREFIX } from '../contracts/cluster-update';
import { ApprovalChangedError, ApprovalPendingError, InvalidTaskInputError } from '../shared/errors';
import { defineTask, type PortsFor } from './define-task';
import { clusterUpdatePayload, runRef } from './step/payloads';
import type { RunRef } from './step/run-record';

const PORTS = { progress: 'write' } as const;

/**
 * The wait for a person's decision (`.waitForTaskToken`): keep the execution's task token with the pending
 * approval, where `clm approve` / `clm reject` find it and send it back (SendTaskSuccess / SendTaskFailure); the
 * state's TimeoutSecondsPath ends the wait when nobody decides. When the record changed since ReviewUpdate (decided
 * meanwhile, or another request), ApprovalChangedError sends the update back to ReviewUpdate. A CLI run has no one
 * to wake it: ApprovalPendingError ends it held (exit 3) with what to run.
 */
export async function awaitApproval(
  ref: RunRef,
  approval: ApprovalOutput,
  taskToken: string,
  ports: PortsFor<typeof PORTS>,
): Promise<ApprovalOutput> {
  const controls = await ports.progress.getControls(ref.clusterId);
  const record = controls?.approval;
  const same = record?.targetVersion === ref.targetVersion && record.planDigest === approval.digest;
  if (!same || record.status !== 'PENDING') {
    throw new ApprovalChangedError(
      `The approval of ${ref.clusterId} changed since the review (${record ? record.status.toLowerCase() : 'gone'}); reviewing again`,
    );
  }
  if (taskToken.startsWith(LOCAL_TASK_TOKEN_PREFIX)) {
    throw new ApprovalPendingError(
      `${approval.message}; then run the update again (clm reject ${ref.clusterId} --reason … turns it down)`,
    );
  }
  await ports.progress.putControls(ref.clusterId, { ...controls, approval: { ...record, taskToken } });
  return approval;
}

export const task = defineTask({
  name: 'AwaitApproval',
  description: 'Keeps the task token of an update waiting for approval, for clm approve / clm reject to send back',
  input: z.extend(clusterUpdatePayload(), { taskToken: z.string().check(z.minLength(1)) }),
  output: ApprovalOutput,
  ports: PORTS,
  step: (payload, ports) => {
    if (!payload.state.approval)
      throw new InvalidTaskInputError(`${payload.stateName}: the state has no $.approval (ReviewUpdate did not run)`);
    return awaitApproval(runRef(payload), payload.state.approval, payload.taskToken, ports);
  },
});
