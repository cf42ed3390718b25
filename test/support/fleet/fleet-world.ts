import type { ClusterPorts } from '../../../lambdas/ports/ports';
import type { NodeInfo } from '../../../lambdas/ports/kube-cluster';
import { MemoryLaunchBudget } from '../../../lambdas/adapters/progress/sharded-launch-budget';
import { resolveFleetTargets } from '../../../lambdas/core/dispatch/fleet-targets';
import type { FleetSettings } from '../../../lambdas/core/dispatch/fleet-settings';
import { DEFAULT_FLEET_SETTINGS, launchLimitsOf } from '../../../lambdas/core/dispatch/fleet-settings';
import type { DispatchPlan } from '../../../lambdas/core/dispatch/plan-dispatch';
import type { Cluster, Problem } from '../../../lambdas/core/model/cluster';
import type { WebhookRequest, WebhookResponse } from '../../../lambdas/core/webhook/webhook-request';
import { MemoryEventSink } from '../../../lambdas/adapters/events/memory-event-sink';
import { MemoryFleetStore } from '../../../lambdas/adapters/fleet/memory-fleet-store';
import { MemoryProgressStore } from '../../../lambdas/adapters/progress/memory-progress-store';
import type { ConfigSource } from '../../../lambdas/ports/config-source';
import type { Ports } from '../../../lambdas/ports/ports';
import type { Registry } from '../../../lambdas/ports/registry';
import type { WebhookVerifier } from '../../../lambdas/ports/webhook-verifier';
import { ConfigError } from '../../../lambdas/shared/errors';
import { dispatchFleet } from '../../../lambdas/tasks/dispatch-fleet';
import { MemoryArtifactStore } from '../fakes/memory-artifact-store';
import { githubWebhook } from '../../../lambdas/tasks/github-webhook';
import { runFleetPass } from '../../../lambdas/tasks/fleet/fleet-pass';
import { FakeClock } from '../fakes/fake-clock';
import { FakeUpdateExecutions, type FakeExecution, type StartQuota } from './fake-update-executions';
import { NO_FORGE } from '../../../lambdas/adapters/forge/no-forge';

const unused = (what: string): never => {
  throw new Error(`${what} is not part of the fleet world`);
};

/**
 * A fleet without AWS: a registry (the clusters, mutable; it keeps status, like the HTTP registry), one git
 * source whose refs a test moves (a `git push`: set `refs` before sending the webhook), the memory fleet store,
 * executions with Step Functions' naming rules, and events. `pass` and `receive` run the DispatchFleet and
 * GithubWebhook tasks' steps through the same ports; a PushAccepted event runs the pass the deployed rule runs.
 */
export class FleetWorld {
  readonly clock = new FakeClock();
  readonly store: MemoryFleetStore;
  readonly executions: FakeUpdateExecutions;
  readonly events = new MemoryEventSink();
  readonly progress = new MemoryProgressStore();
  readonly refs = new Map<string, string>();
  readonly artifacts = new MemoryArtifactStore();
  readonly source: ConfigSource = {
    name: 'main',
    kind: 'git',
    location: 'https://github.com/acme/cluster-config.git',
    resolveVersion: async (channel) => {
      const sha = this.refs.get(channel);
      if (!sha) throw new ConfigError(`unknown ref ${JSON.stringify(channel)}`);
      return sha;
    },
    checkout: async () => unused('checkout'),
    // `git ls-remote`: every branch of `refs`, counted (one request each).
    listHeads: async () => {
      this.headListings++;
      return new Map([...this.refs].map(([branch, sha]) => [`refs/heads/${branch}`, sha]));
    },
  };
  /** How often the source's heads were listed. */
  headListings = 0;
  readonly ports: Ports;

  constructor(
    public clusters: Cluster[],
    readonly settings: FleetSettings = DEFAULT_FLEET_SETTINGS,
    verifier?: WebhookVerifier,
    startQuota?: StartQuota,
  ) {
    this.executions = new FakeUpdateExecutions(() => this.clock.now(), startQuota);
    this.store = new MemoryFleetStore({ settings });
    const registry: Registry = {
      description: 'memory://fleet',
      persistsStatus: true,
      listClusters: async () => this.clusters.map((c) => ({ ...c })),
      updateStatus: async (id, { status }) => this.replace(id, { status }),
      updateConfigItems: async () => unused('updateConfigItems'),
    };
    this.ports = {
      registry,
      sources: [this.source],
      progress: this.progress,
      clock: this.clock,
      fleet: this.store,
      executions: this.executions,
      events: this.events,
      webhooks: verifier ?? {
        verify: async () => false,
        verifyGitlab: async () => false,
        verifyBitbucket: async () => false,
      },
      forge: NO_FORGE,
      launches: new MemoryLaunchBudget(launchLimitsOf(settings)),
      // The artefact bucket: the fleet page every DispatchFleet pass writes.
      artifacts: this.artifacts,
      templates: undefined as never,
      secrets: undefined as never,
      rehearsals: undefined as never,
      // Only the clusters' nodes (the scheduled pass's look at them, fleet/node-checks.ts); other cluster ports unused.
      forCluster: (cluster) =>
        ({ kube: { listNodes: async () => [...(this.nodes.get(cluster.id) ?? [])] } }) as unknown as ClusterPorts,
    };
  }

  /** The nodes of each cluster's API server, for the pass's look at them. */
  readonly nodes = new Map<string, NodeInfo[]>();

  cluster(id: string): Cluster {
    const found = this.clusters.find((c) => c.id === id);
    if (!found) throw new Error(`no cluster ${id}`);
    return found;
  }

  /** Problems recorded on the clusters' status (the registry keeps status). */
  get problems(): { clusterId: string; problem: Problem }[] {
    return this.clusters.flatMap((c) => c.status.problems.map((problem) => ({ clusterId: c.id, problem })));
  }

  /** One dispatcher pass, as the DispatchFleet task runs it (optionally scoped, as a push or a stream scopes it). */
  async pass(options: { scope?: ReadonlySet<string>; trigger?: string } = {}): Promise<DispatchPlan> {
    const scope = options.scope;
    const { plan } = await runFleetPass(this.ports, {
      trigger: options.trigger ?? 'schedule',
      ...(scope ? { scope: () => scope } : {}),
    });
    return plan;
  }

  /** The webhook endpoint (GithubWebhook), then the pass its PushAccepted event asks for (DispatchFleet). */
  async receive(request: WebhookRequest): Promise<WebhookResponse> {
    const before = this.events.events.length;
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]])),
    );
    const answer = await githubWebhook(
      { method: request.method ?? 'POST', path: '/webhooks/github', headers, body: request.body },
      this.ports,
    );
    for (const event of this.events.events.slice(before)) {
      if (event.type !== 'PushAccepted') continue;
      const { repository, ref, commit } = event.detail;
      await dispatchFleet({ trigger: 'webhook', push: { repository, ref, commit } }, this.ports);
    }
    return answer;
  }

  /**
   * Let every running execution end as a real one would: at the cluster's current target it succeeds
   * (status moves on, as Finalize writes it) unless `fail` names an error for the cluster and config version.
   */
  async finishRunning(
    fail: (clusterId: string, configVersion: string) => string | undefined = () => undefined,
    only: (execution: FakeExecution) => boolean = () => true,
  ): Promise<void> {
    this.clock.advance(60_000);
    for (const execution of this.executions.running().filter(only)) {
      const cluster = this.cluster(execution.clusterId);
      const target = (await resolveFleetTargets([cluster], [this.source])).get(cluster.id);
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
      this.executions.end(execution.name, 'SUCCEEDED', undefined, target.targetVersion);
    }
  }

  replace(id: string, changes: Partial<Cluster>): void {
    this.clusters = this.clusters.map((c) => (c.id === id ? { ...c, ...changes } : c));
  }
}
