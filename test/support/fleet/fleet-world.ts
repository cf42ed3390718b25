import { resolveFleetTargets } from '../../../lambdas/core/dispatch/fleet-targets';
import type { FleetSettings } from '../../../lambdas/core/dispatch/fleet-settings';
import { DEFAULT_FLEET_SETTINGS } from '../../../lambdas/core/dispatch/fleet-settings';
import type { DispatchPlan, PlannedStart } from '../../../lambdas/core/dispatch/plan-dispatch';
import { planDispatch } from '../../../lambdas/core/dispatch/plan-dispatch';
import { recordStart, withNextAttempt } from '../../../lambdas/core/dispatch/record-start';
import type { ClusterFleetState } from '../../../lambdas/core/dispatch/fleet-state';
import type { Cluster, Problem } from '../../../lambdas/core/model/cluster';
import type { ConfigSourceSpec } from '../../../lambdas/core/model/config-source-spec';
import type { VersionResolver } from '../../../lambdas/core/version/resolve-config-version';
import { matchPush, sourceCommits } from '../../../lambdas/core/webhook/push-match';
import type { WebhookRequest, WebhookResponse } from '../../../lambdas/core/webhook/webhook-request';
import {
  badSignature,
  DELIVERY_STALE_AFTER_MS,
  DELIVERY_TTL_MS,
  interpretDelivery,
  pushAnswer,
  readEnvelope,
  replayed,
} from '../../../lambdas/core/webhook/webhook-request';
import { MemoryEventSink } from '../../../lambdas/adapters/events/memory-event-sink';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import type { WebhookVerifier } from '../../../lambdas/ports/webhook-verifier';
import { ConfigError } from '../../../lambdas/shared/errors';
import { FakeClock } from '../fakes/fake-clock';
import { FakeUpdateExecutions } from './fake-update-executions';

/**
 * A fleet without AWS: a registry (the clusters, mutable), one git source whose refs a test moves (a
 * `git push`: set `refs` before sending the webhook), the
 * memory fleet store, executions with Step Functions' naming rules, and events. `pass` and `receive` run
 * the steps the Dispatch and Webhook tasks will run, through the same ports.
 */
export class FleetWorld {
  readonly clock = new FakeClock();
  readonly store = new MemoryFleetStore();
  readonly executions = new FakeUpdateExecutions(() => this.clock.now());
  readonly events = new MemoryEventSink();
  readonly problems: { clusterId: string; problem: Problem }[] = [];
  readonly refs = new Map<string, string>();
  readonly sources: ConfigSourceSpec[] = [
    { name: 'main', kind: 'git', location: 'https://github.com/acme/cluster-config.git' },
  ];
  readonly resolver: VersionResolver = {
    name: 'main',
    resolveVersion: async (channel) => {
      const sha = this.refs.get(channel);
      if (!sha) throw new ConfigError(`unknown ref ${JSON.stringify(channel)}`);
      return sha;
    },
  };

  constructor(
    public clusters: Cluster[],
    readonly settings: FleetSettings = DEFAULT_FLEET_SETTINGS,
    readonly verifier?: WebhookVerifier,
  ) {}

  cluster(id: string): Cluster {
    const found = this.clusters.find((c) => c.id === id);
    if (!found) throw new Error(`no cluster ${id}`);
    return found;
  }

  /** One dispatcher pass, as the Dispatch task runs it. */
  async pass(options: { scope?: ReadonlySet<string>; trigger?: string } = {}): Promise<DispatchPlan> {
    const now = this.clock.now();
    const fleet = await this.store.loadFleet();
    const running = [...fleet.clusters.values()].flatMap((s) =>
      s.execution?.state === 'running' ? [s.execution] : [],
    );
    const [targets, outcomes, runningCount] = await Promise.all([
      resolveFleetTargets(this.clusters, [this.resolver]),
      this.executions.describe(running),
      this.executions.countRunning(),
    ]);
    const plan = planDispatch({
      clusters: this.clusters,
      targets,
      fleet,
      outcomes: new Map(outcomes.map((o) => [o.name, o])),
      running: runningCount,
      settings: this.settings,
      now,
      trigger: options.trigger ?? 'schedule',
      ...(options.scope ? { scope: options.scope } : {}),
    });
    const states = new Map<string, ClusterFleetState>(plan.states.map((s) => [s.clusterId, s]));
    const started = [];
    for (const start of plan.starts) {
      const result = await this.startOne(start);
      if (!result) continue;
      const { state, event } = recordStart(
        result.start,
        result.result,
        states.get(start.clusterId) ?? fleet.clusters.get(start.clusterId),
        now,
      );
      states.set(start.clusterId, state);
      started.push(event);
      this.markNext(start.clusterId, result.start.targetVersion);
    }
    await this.store.saveClusterStates([...states.values()]);
    await this.store.saveHalts(plan.halts);
    await this.events.publish([...plan.events, ...started]);
    this.problems.push(...plan.problems);
    return plan;
  }

  /** The webhook endpoint, as the Webhook task runs it; a push dispatches the clusters it affects. */
  async receive(request: WebhookRequest): Promise<WebhookResponse> {
    const envelope = readEnvelope(request);
    if (!envelope.ok) return envelope.response;
    if (!this.verifier || !(await this.verifier.verify(envelope.value.body, envelope.value.signature))) {
      return badSignature(envelope.value);
    }
    const delivery = interpretDelivery(envelope.value, this.sources);
    if (delivery.kind === 'answered') return delivery.response;
    const now = this.clock.now();
    const claim = await this.store.claimDelivery(envelope.value.deliveryId, {
      now,
      ttlMs: DELIVERY_TTL_MS,
      staleAfterMs: DELIVERY_STALE_AFTER_MS,
    });
    if (!claim.claimed) return replayed(envelope.value, claim.firstSeenAt);
    const match = matchPush(delivery.push, this.sources, this.clusters);
    // The repository itself moved before GitHub sent this; the commit is recorded for `clm status`.
    for (const commit of sourceCommits(delivery.push, match, envelope.value.deliveryId, now))
      await this.store.recordCommit(commit);
    const plan = match.clusters.length
      ? await this.pass({ scope: new Set(match.clusters), trigger: 'webhook' })
      : undefined;
    const answer = pushAnswer(
      envelope.value,
      match,
      plan && { started: plan.starts.map((s) => s.clusterId), skipped: plan.skipped.length },
    );
    await this.store.completeDelivery(envelope.value.deliveryId, now, String(answer.body.message));
    return answer;
  }

  /**
   * Let every running execution end as a real one would: at the cluster's current target it succeeds
   * (status moves on, as Finalize writes it) unless `fail` names an error for the cluster and config version.
   */
  async finishRunning(
    fail: (clusterId: string, configVersion: string) => string | undefined = () => undefined,
  ): Promise<void> {
    this.clock.advance(60_000);
    for (const execution of this.executions.running()) {
      const cluster = this.cluster(execution.clusterId);
      const target = (await resolveFleetTargets([cluster], [this.resolver])).get(cluster.id);
      const error = target?.ok ? fail(cluster.id, target.configVersion) : 'ConfigError';
      if (error || !target?.ok) {
        this.executions.end(execution.name, 'FAILED', { error: error ?? 'ConfigError', cause: `${cluster.id} broke` });
        continue;
      }
      this.replace(cluster.id, {
        status: {
          ...cluster.status,
          currentVersion: target.targetVersion,
          nextVersion: '',
          lastVersion: cluster.status.currentVersion,
        },
      });
      this.executions.end(execution.name, 'SUCCEEDED');
    }
  }

  replace(id: string, changes: Partial<Cluster>): void {
    this.clusters = this.clusters.map((c) => (c.id === id ? { ...c, ...changes } : c));
  }

  private markNext(id: string, targetVersion: string): void {
    const cluster = this.cluster(id);
    if (cluster.lifecycleStatus !== 'decommission-requested')
      this.replace(id, { status: { ...cluster.status, nextVersion: targetVersion } });
  }

  private async startOne(start: PlannedStart) {
    let attempt = start;
    for (let tries = 0; tries < 5; tries++) {
      const request = { name: attempt.executionName, input: attempt.input };
      const result = attempt.resume
        ? await this.executions.resume(attempt.resume, request)
        : await this.executions.start(request);
      if (result.how !== 'name-taken') return { start: attempt, result };
      attempt = withNextAttempt(attempt);
    }
    return undefined;
  }
}
