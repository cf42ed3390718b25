import type { Cluster, Problem } from '../model/cluster';
import { GENERAL_ERROR_TYPE } from '../status/problems';
import { holdsWaves, isResumable, nextAttemptAt } from './execution-record';
import type { FleetSettings } from './fleet-settings';
import type { ClusterFleetState, DispatchAction, ExecutionRecord } from './fleet-state';
import type { FleetTarget } from './fleet-targets';
import { decommissionVersion, updateBlock } from '../model/update-decision';
import type { MemberState } from './waves';

/** Why a cluster gets no execution in a pass. */
export const SKIP_REASONS = [
  'up-to-date',
  'decommissioned',
  'account-filtered',
  'region-filtered',
  'update-blocked',
  'paused',
  'lifecycle',
  'target-error',
  'running',
  'backoff',
  'wave-waiting',
  'wave-halted',
  'capacity',
  'capacity-account',
  'capacity-region',
  'pacing',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Reasons of one cluster's own that need a person (or time) to change something: announced as
 * ClusterUpdateBlocked. Clusters held by a halted wave are not announced one by one: the WaveHalted event
 * names the held waves (a halt in a fleet of 10,000 would otherwise send thousands of events).
 */
export const BLOCKING_REASONS: ReadonlySet<SkipReason> = new Set([
  'update-blocked',
  'paused',
  'target-error',
  'backoff',
]);

/** CLM's priorities (§9.2): 3 an interrupted update, 2 a decommission, 1 an update or a target error. */
export type Priority = 1 | 2 | 3;

export type Assessment =
  | {
      readonly kind: 'skip';
      readonly reason: SkipReason;
      readonly message: string;
      readonly targetVersion?: string;
      /** A problem to record on the cluster (CLM records target errors). */
      readonly problem?: Problem;
      readonly member?: Membership;
    }
  | {
      readonly kind: 'work';
      readonly action: DispatchAction;
      readonly priority: Priority;
      readonly targetVersion: string;
      readonly attempt: number;
      /** A dead execution to redrive (else a new execution continues from the stored progress). */
      readonly resume?: { readonly name: string; readonly arn?: string };
      readonly message: string;
      /** Set for updates: the rollout it belongs to (decommissions are not held by waves). */
      readonly member?: Membership;
    };

/** A cluster's place in the rollout of its target config version. */
export interface Membership {
  readonly configVersion: string;
  readonly state: MemberState;
  /** Why a failed member failed. */
  readonly failure?: { readonly error: string; readonly at: number };
  /** When a done member's execution reached the target (unknown for clusters that were at it already). */
  readonly doneAt?: number;
}

export interface AssessInput {
  readonly cluster: Cluster;
  readonly target: FleetTarget | undefined;
  readonly state: ClusterFleetState | undefined;
  readonly controls:
    { readonly paused?: boolean; readonly abortRequested?: boolean; readonly reason?: string } | undefined;
  readonly accepts: (account: string) => boolean;
  readonly settings: FleetSettings;
  readonly now: number;
}

/** What one cluster needs, on its own (waves and the concurrency cap are the planner's business). */
export function assessCluster(input: AssessInput): Assessment {
  const { cluster, target, controls } = input;
  const skip = (reason: SkipReason, message: string, extra: Partial<Assessment> = {}): Assessment =>
    ({ kind: 'skip', reason, message, ...extra }) as Assessment;
  if (cluster.lifecycleStatus === 'decommissioned') return skip('decommissioned', 'decommissioned');
  if (!input.accepts(cluster.infrastructureAccount)) {
    return skip('account-filtered', `account ${cluster.infrastructureAccount} is outside --include/--exclude`);
  }
  const { regions } = input.settings;
  if (regions && !regions.includes(cluster.region)) {
    return skip('region-filtered', `region ${cluster.region} is another deployment's (regions ${regions.join(',')})`);
  }
  const block = updateBlock(cluster, controls);
  if (block) return skip(block.kind, block.detail);
  if (cluster.lifecycleStatus === 'creating') {
    return skip(
      'lifecycle',
      'lifecycle_status creating is not one CLM acts on (requested, ready, decommission-requested)',
    );
  }
  if (!target || !target.ok) {
    const error = target && !target.ok ? target.error : { name: 'ConfigError', message: 'no target version computed' };
    const title = `${error.name}: ${error.message.split('\n')[0]}`;
    return skip('target-error', `cannot compute the target version: ${title}`, {
      problem: { type: GENERAL_ERROR_TYPE, title },
    });
  }
  return assessWork(input, target);
}

function assessWork(input: AssessInput, target: Extract<FleetTarget, { ok: true }>): Assessment {
  const { cluster, settings, now } = input;
  const decommission = cluster.lifecycleStatus === 'decommission-requested';
  const action: DispatchAction = decommission ? 'decommission' : 'update';
  const targetVersion = decommission ? decommissionVersion(target.targetVersion) : target.targetVersion;
  const record = input.state?.execution;
  const { currentVersion, nextVersion } = cluster.status;
  const failed = !decommission && holdsWaves(record, targetVersion, settings);
  const member = (state: MemberState): Membership | undefined => {
    if (decommission) return undefined;
    if (!failed) return { configVersion: target.configVersion, state };
    const { error, at } = record!.lastFailure!;
    return { configVersion: target.configVersion, state: 'failed', failure: { error, at } };
  };

  if (record?.state === 'running') {
    const what = record.targetVersion === targetVersion ? '' : `; ${targetVersion} follows when it ends`;
    return {
      kind: 'skip',
      reason: 'running',
      targetVersion,
      message: `${record.action} to ${record.targetVersion} is running (${record.name})${what}`,
      member: member('running'),
    };
  }
  if (!decommission && currentVersion === targetVersion) {
    const reached =
      record?.state === 'succeeded' && record.targetVersion === targetVersion ? record.endedAt : undefined;
    const done = member('done');
    return {
      kind: 'skip',
      reason: 'up-to-date',
      targetVersion,
      message: `at ${targetVersion}`,
      member: done && reached !== undefined ? { ...done, doneAt: reached } : done,
    };
  }
  const retry = retryOf(record, action, targetVersion, settings, now);
  if (retry && retry.due > now) {
    return {
      kind: 'skip',
      reason: 'backoff',
      targetVersion,
      message: retry.message,
      member: member('pending'),
    };
  }
  const interrupted = nextVersion !== '' && nextVersion !== currentVersion;
  const priority: Priority = decommission ? 2 : interrupted || retry?.resume ? 3 : 1;
  const verb = decommission ? 'decommission' : currentVersion ? `update from ${currentVersion}` : 'create';
  return {
    kind: 'work',
    action,
    priority,
    targetVersion,
    attempt: retry ? record!.attempt + 1 : 1,
    ...(retry?.resume ? { resume: retry.resume } : {}),
    message: `${retry?.resume ? 'resume ' : ''}${verb} to ${targetVersion}${retry ? ` (attempt ${record!.attempt + 1})` : ''}`,
    member: member('pending'),
  };
}

/** The last execution at this very target ended short of it: when and how to try again. */
function retryOf(
  record: ExecutionRecord | undefined,
  action: DispatchAction,
  targetVersion: string,
  settings: FleetSettings,
  now: number,
): { due: number; resume?: { name: string; arn?: string }; message: string } | undefined {
  if (!record || record.action !== action || record.targetVersion !== targetVersion || !record.lastFailure) {
    return undefined;
  }
  const due = nextAttemptAt(record, settings) ?? now;
  const failure = record.lastFailure;
  const message = `${record.failures} failed attempt${record.failures === 1 ? '' : 's'} at ${targetVersion}, last ${record.name}: ${failure.error}${failure.cause ? ` (${failure.cause.split('\n')[0]})` : ''}; next attempt after ${new Date(due).toISOString()}`;
  const resume = isResumable(record) ? { name: record.name, ...(record.arn ? { arn: record.arn } : {}) } : undefined;
  return { due, message, ...(resume ? { resume } : {}) };
}
