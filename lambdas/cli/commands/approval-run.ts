// `clm approve` and `clm reject`: the implementation, loaded by their actions (approval.ts declares them).
import { approvalPlanText, type ApprovalRecord } from '../../core/approval/approval';
import { LOCAL_TASK_TOKEN_PREFIX, type ApprovalOutput } from '../../contracts/cluster-update';
import type { TaskTokens } from '../../ports/task-tokens';
import { ERROR_NAMES } from '../../shared/errors';
import { UsageError, type CliIo } from '../io';
import { openStateStores } from '../state-stores';
import { usageAsync } from '../usage';
import { operator } from './controls-run';
import { importCjs } from '../../shared/import-cjs';
import type { DecisionOptions } from './approval';

export async function decideApproval(
  cluster: string,
  status: 'APPROVED' | 'REJECTED',
  options: DecisionOptions,
  io: CliIo,
  tokens: (region?: string) => Promise<TaskTokens>,
): Promise<void> {
  const { progress, save } = await usageAsync(() =>
    openStateStores(options.state, {
      cwd: io.cwd,
      fleet: false,
      ...(options.region ? { region: options.region } : {}),
    }),
  );
  const controls = await progress.getControls(cluster);
  const record = controls?.approval;
  if (!record) throw new UsageError(`${cluster}: no update awaits approval (nothing was requested)`);
  if (options.plan && options.plan !== record.planDigest)
    throw new UsageError(
      `${cluster}: the pending plan is ${approvalPlanText(record).slice('plan '.length)}, not ${options.plan}; read it again (clm status, clm plan)`,
    );
  if (record.status === status)
    throw new UsageError(`${cluster}: plan ${record.planDigest} is already ${status.toLowerCase()}`);
  const { taskToken, ...rest } = record;
  const decided: ApprovalRecord = {
    ...rest,
    status,
    by: operator(),
    at: Date.now(),
    ...(options.reason ? { reason: options.reason } : {}),
  };
  await progress.putControls(cluster, { ...controls, approval: decided });
  save();
  const verb = status === 'APPROVED' ? 'approved' : 'rejected';
  const woke =
    taskToken && !taskToken.startsWith(LOCAL_TASK_TOKEN_PREFIX)
      ? await wake(taskToken, decided, options, tokens)
      : undefined;
  const next =
    woke === true
      ? status === 'APPROVED'
        ? 'the waiting execution goes on'
        : 'the waiting execution ends, changing nothing'
      : woke === false
        ? 'its execution no longer waits (timed out or stopped); the next run of that version goes on from the decision'
        : status === 'APPROVED'
          ? 'run the update again: it goes on from here'
          : 'the update of this plan will not run';
  io.stdout(`${cluster}: ${approvalPlanText(record)} ${verb}; ${next}\n`);
}

async function wake(
  token: string,
  record: ApprovalRecord,
  options: DecisionOptions,
  tokens: (region?: string) => Promise<TaskTokens>,
): Promise<boolean> {
  const sender = await tokens(options.region);
  const message = `plan ${record.planDigest} ${record.status.toLowerCase()} by ${record.by}${record.reason ? `: ${record.reason}` : ''}`;
  if (record.status === 'REJECTED') return sender.fail(token, ERROR_NAMES.UpdateRejectedError, message);
  const output: ApprovalOutput = {
    status: 'APPROVED',
    timeoutSeconds: 60,
    message,
    digest: record.planDigest,
    planKey: record.planKey,
  };
  return sender.succeed(token, output);
}

/** Step Functions in `region` (loaded only when a deployed execution waits: the SDK takes a while to load). */
export async function sfnTaskTokens(region?: string): Promise<TaskTokens> {
  const [{ SFNClient }, { SfnTaskTokens }, { awsEndpointFromEnv }] = await Promise.all([
    importCjs(import('@aws-sdk/client-sfn')),
    import('../../adapters/aws/sfn-task-tokens'),
    import('../../adapters/aws/aws-clients'),
  ]);
  const endpoint = awsEndpointFromEnv(process.env);
  return new SfnTaskTokens(new SFNClient({ ...(region ? { region } : {}), ...(endpoint ? { endpoint } : {}) }));
}
