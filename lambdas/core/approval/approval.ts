import { createHash } from 'node:crypto';
import type { ConfigItems } from '../model/cluster';
import type { ClusterPlan } from '../plan/plan-document';
import { parseGoDuration } from '../rollout/go-duration';
import { ValidationError } from '../../shared/errors';
import { stableStringify } from '../../shared/stable-json';
import { booleanItem } from '../config/boolean-item';

/** The config items that make a cluster's updates wait for a person's approval of their plan. */
export const APPROVAL_ITEM = 'update_requires_approval';
export const APPROVAL_TIMEOUT_ITEM = 'update_approval_timeout';

const DEFAULT_TIMEOUT_SECONDS = 24 * 3600;
/**
 * At most 14 days: the wait is a Task state's TimeoutSecondsPath, and a longer one leaves an update holding its
 * target for longer than anyone remembers what they were asked to approve.
 */
const MAX_TIMEOUT_SECONDS = 14 * 24 * 3600;

export interface ApprovalSetting {
  readonly required: boolean;
  /** How long an update waits for the decision before the request lapses. */
  readonly timeoutSeconds: number;
}

/** Read `update_requires_approval` ("true"/"false") and `update_approval_timeout` (a Go duration, default 24h). */
export function approvalSetting(items: ConfigItems, clusterId: string): ApprovalSetting {
  const required = booleanItem(items, APPROVAL_ITEM, clusterId);
  const timeoutText = items[APPROVAL_TIMEOUT_ITEM];
  let timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
  if (timeoutText !== undefined) {
    const ms = parseGoDuration(timeoutText);
    if (ms === undefined || ms < 60_000 || ms > MAX_TIMEOUT_SECONDS * 1000) {
      throw new ValidationError(
        `must be a Go duration between 1m and 336h (14 days), e.g. "24h", not ${JSON.stringify(timeoutText)}`,
        { location: { clusterId, field: `config_items.${APPROVAL_TIMEOUT_ITEM}` } },
      );
    }
    timeoutSeconds = Math.round(ms / 1000);
  }
  return { required, timeoutSeconds };
}

/** One approval request and its decision, kept with the cluster's operator controls. */
export interface ApprovalRecord {
  readonly status: 'PENDING' | 'APPROVED' | 'REJECTED';
  /** The update the plan is for, and the plan itself (its digest and where the document is). */
  readonly targetVersion: string;
  readonly planDigest: string;
  readonly planKey: string;
  /** One-line summary of the plan (what `clm status` shows). */
  readonly summary: string;
  /** How its rehearsal in a twin of the cluster went, in one line (rehearsalSummary), or why there is none. */
  readonly rehearsal?: string;
  /** ms since the epoch */
  readonly requestedAt: number;
  /** The Step Functions task token of the execution waiting for the decision (absent for CLI runs). */
  readonly taskToken?: string;
  /** Who decided, when and why. */
  readonly by?: string;
  readonly at?: number;
  readonly reason?: string;
}

/** `plan <digest> (<summary>; <rehearsal>)`: how an approval names its plan (clm status, clm approve). */
export function approvalPlanText(record: Pick<ApprovalRecord, 'planDigest' | 'summary' | 'rehearsal'>): string {
  return `plan ${record.planDigest} (${record.summary}${record.rehearsal ? `; ${record.rehearsal}` : ''})`;
}

/**
 * A plan's digest: the same update of the same live cluster has the same digest, whoever computes it. A rehearsal is
 * a prediction about the plan, not part of it: the plan's digest is the same with or without one.
 */
export function planDigest(plan: ClusterPlan): string {
  const { rehearsal: _prediction, ...planned } = plan;
  return createHash('sha256').update(stableStringify(planned)).digest('hex').slice(0, 16);
}

/**
 * What the stored record says about this plan: the decision when it is for this very plan (same target version
 * and digest); otherwise the request lapsed (the target or the live cluster changed) and a new one is PENDING.
 */
export function decisionFor(
  record: ApprovalRecord | undefined,
  targetVersion: string,
  digest: string,
): ApprovalRecord['status'] | 'NEW' {
  if (!record || record.targetVersion !== targetVersion || record.planDigest !== digest) return 'NEW';
  return record.status;
}

/** A one-line summary of a plan: what changes, in counts. */
export function planSummary(plan: ClusterPlan): string {
  const count = (n: number, what: string) => (n ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
  const parts = [
    ...count(plan.stacks.filter((s) => s.action !== 'no-changes').length, 'stack change'),
    ...count(plan.objects.filter((o) => o.action !== 'unchanged').length, 'object change'),
    ...count(plan.deletions.length, 'deletion'),
    ...count(
      plan.pools.reduce((sum, p) => sum + p.nodes, 0),
      'node replacement',
    ),
    ...count(plan.configItems.length, 'config item change'),
    ...count(plan.problems.length, 'problem'),
  ];
  return `${plan.targetVersion}: ${parts.length ? parts.join(', ') : 'no changes'}`;
}
