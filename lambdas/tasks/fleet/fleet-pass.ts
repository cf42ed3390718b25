import type { DispatchReport } from '../../contracts/dispatch-report';
import type { FleetEvent } from '../../contracts/fleet-events';
import { CLM_METRICS } from '../../contracts/metrics';
import { behindTarget, dispatchReport, type StartOutcome } from '../../core/dispatch/dispatch-report';
import type { ClusterFleetState, FleetSnapshot } from '../../core/dispatch/fleet-state';
import { resolveFleetTargets } from '../../core/dispatch/fleet-targets';
import { planDispatch, type DispatchPlan, type PlannedStart } from '../../core/dispatch/plan-dispatch';
import { recordStart, withNextAttempt, type StartResult } from '../../core/dispatch/record-start';
import { diffRegistry, mergeStates, withStates, type RegistryDiff } from '../../core/dispatch/registry-changes';
import type { Cluster } from '../../core/model/cluster';
import type { UpdateExecutions } from '../../ports/update-executions';
import type { PortsFor, TaskMetric } from '../define-task';
import { listWithStoredStatus, recordClusterProblem, withRecordedNodeChecks } from '../step/cluster-status';
import { paced, startPace } from './start-pacing';
import { renewalCandidates } from '../../core/dispatch/renewal-starts';
import type { NodeChecks } from './node-checks';
import { headResolvers, readHeads, recordHeads } from './source-heads';
import type { VersionResolver } from '../../core/version/resolve-config-version';
import { retryThrottled, type ThrottleBackoff } from '../throttling/retry-throttled';

/** The ports of a dispatcher pass (the tasks that run one declare these). */
export const PASS_PORTS = {
  registry: 'write',
  sources: 'read',
  progress: 'write',
  fleet: 'write',
  executions: 'write',
  events: 'write',
  clock: 'read',
} as const;
export type PassPorts = PortsFor<typeof PASS_PORTS>;

export interface PassOptions {
  /** What asked for the pass (webhook, schedule, execution, registry, cli): in each started execution's input. */
  readonly trigger: string;
  /** Which clusters may start, given the registry as read; undefined lets the whole fleet start. */
  readonly scope?: (clusters: readonly Cluster[]) => ReadonlySet<string> | undefined;
  /**
   * Diff the registry against the cluster hashes last seen, keep the new hashes and forget clusters that left
   * (the HTTP registry and clusters.yaml have no change stream); `changes` also limits the starts to what changed.
   */
  readonly poll?: 'record' | 'changes';
  /** Clusters that left the registry (the stream's removals): forgotten. */
  readonly forget?: readonly string[];
  /** What the stream batch changed, for the report. */
  readonly registry?: DispatchReport['registry'];
  /** Look at the nodes of the clusters that ask for node repair or a maximum age (fleet/node-checks.ts). */
  readonly checkNodes?: (candidates: ReturnType<typeof renewalCandidates>, now: number) => Promise<NodeChecks>;
  /**
   * List each git source's heads (one request per source, as `git ls-remote`), resolve the targets from them, and
   * record and report the refs that moved without a webhook (missed pushes). The scheduled pass does.
   */
  readonly heads?: boolean;
}

export interface PassResult {
  readonly plan: DispatchPlan;
  readonly report: DispatchReport;
  /** The registry as this pass read it (stored status overlaid). */
  readonly clusters: readonly Cluster[];
  /** Each cluster's target version as this pass resolved it (undefined where it has none). */
  readonly targets: ReadonlyMap<string, string | undefined>;
}

const MAX_NAME_ATTEMPTS = 5;
const LISTED_CHANGES = 100;

/**
 * One dispatcher pass, in CLM's order (docs/fleet.md "One pass"): read the registry once (stored status overlaid,
 * batched), the fleet state, the outcomes of the executions recorded as running and the running count; plan
 * (lambdas/core/dispatch/plan-dispatch.ts: priorities, waves, halts, the cap); start what it picked under
 * deterministic names; write back states and halts, record problems, and send the events. Safe to run twice at
 * once: a second start of the same work is "already running", and a state another pass wrote is not overwritten.
 */
export async function runFleetPass(ports: PassPorts, options: PassOptions): Promise<PassResult> {
  const now = ports.clock.now();
  const clusters = await listWithStoredStatus(ports);
  const snapshot = await ports.fleet.loadFleet();
  const diff = options.poll ? diffRegistry(clusters, snapshot.clusters) : undefined;
  const states = diff ? withStates(snapshot.clusters, diff.states) : snapshot.clusters;
  const scope = diff && options.poll === 'changes' ? diff.changed : options.scope?.(clusters);
  const heads = options.heads ? await readHeads(ports.sources) : undefined;
  const missed = heads ? await recordHeads(ports.fleet, heads, clusters, now) : [];
  const sources = heads ? headResolvers(ports.sources, heads) : ports.sources;
  const pass = { clusters, snapshot, states, scope, now, trigger: options.trigger, sources };
  const planned = await planPass(ports, pass);
  const targets = new Map([...planned.targets].map(([id, t]) => [id, t.ok ? t.targetVersion : undefined]));
  const { plan, behind } = await withNodeChecks(ports, planned, options, { clusters, states, scope, now });
  const started = await startPlanned(ports, plan.starts, states, now);
  const saved = await ports.fleet.saveClusterStates(mergeStates(diff?.states ?? [], plan.states, started.states));
  const forget = [...(diff?.removed ?? []), ...(options.forget ?? [])];
  if (forget.length) await ports.fleet.forgetClusters(forget);
  await ports.fleet.saveHalts(plan.halts);
  const byId = new Map(clusters.map((c) => [c.id, c]));
  for (const { clusterId, problem } of plan.problems) {
    await recordClusterProblem(ports, clusterId, byId.get(clusterId), problem, now);
  }
  await ports.events.publish([...plan.events, ...started.events]);
  const registry = options.registry ?? (diff ? registryFigures(diff) : undefined);
  return {
    plan,
    clusters,
    targets,
    report: dispatchReport(plan, {
      trigger: options.trigger,
      behindTarget: behind,
      outcomes: started.outcomes,
      conflicts: saved.conflicts.length,
      throttles: started.throttles,
      ...(registry ? { registry } : {}),
      ...(missed.length ? { missedPushes: missed } : {}),
    }),
  };
}

interface PlannedPass {
  readonly plan: DispatchPlan;
  readonly behind: number;
  readonly targets: Awaited<ReturnType<typeof resolveFleetTargets>>;
  readonly controls: Awaited<ReturnType<PassPorts['progress']['getControlsOf']>>;
}

async function planPass(
  ports: PassPorts,
  input: {
    readonly clusters: readonly Cluster[];
    readonly snapshot: FleetSnapshot;
    readonly states: ReadonlyMap<string, ClusterFleetState>;
    readonly scope: ReadonlySet<string> | undefined;
    readonly now: number;
    readonly trigger: string;
    readonly sources: readonly VersionResolver[];
  },
): Promise<PlannedPass> {
  const { clusters, snapshot, states } = input;
  const running = [...states.values()].flatMap((s) => (s.execution?.state === 'running' ? [s.execution] : []));
  const [targets, outcomes, runningNow, controls] = await Promise.all([
    resolveFleetTargets(clusters, input.sources),
    running.length ? ports.executions.describe(running) : Promise.resolve([]),
    ports.executions.countRunning(),
    ports.progress.getControlsOf(clusters.map((c) => c.id)),
  ]);
  const plan = planDispatch({
    clusters,
    targets,
    fleet: { clusters: states, halts: snapshot.halts, overrides: snapshot.overrides },
    outcomes: new Map(outcomes.map((o) => [o.name, o])),
    controls,
    running: runningNow,
    settings: ports.fleet.settings,
    now: input.now,
    trigger: input.trigger,
    ...(input.scope ? { scope: input.scope } : {}),
  });
  return { plan, behind: behindTarget(clusters, targets), targets, controls };
}

/**
 * The pass's look at nodes, when asked: renewal runs join the starts, caps that hold repairs back its problems. The
 * clusters that may be looked at (ready, at a version) are judged by their registry items over the node-check items
 * the render of the version they run recorded (config-defaults.yaml's; one batched read of their stored status).
 */
async function withNodeChecks(
  ports: Pick<PassPorts, 'progress'>,
  planned: PlannedPass,
  options: PassOptions,
  input: Pick<Parameters<typeof renewalCandidates>[0], 'clusters' | 'states' | 'scope'> & { readonly now: number },
): Promise<{ plan: DispatchPlan; behind: number }> {
  const { plan, behind, targets, controls } = planned;
  if (!options.checkNodes) return { plan, behind };
  const starting = new Set(plan.starts.map((s) => s.clusterId));
  const running = input.clusters.filter((c) => c.lifecycleStatus === 'ready' && c.status.currentVersion);
  const clusters = await withRecordedNodeChecks(ports, running);
  const candidates = renewalCandidates({ ...input, clusters, targets, controls, starting });
  const checks = await options.checkNodes(candidates, input.now);
  return {
    plan: {
      ...plan,
      starts: [...plan.starts, ...checks.starts],
      problems: [...plan.problems, ...checks.problems],
      summary: { ...plan.summary, starts: plan.summary.starts + checks.starts.length },
    },
    behind,
  };
}

interface Started {
  readonly states: ClusterFleetState[];
  readonly events: FleetEvent[];
  readonly outcomes: Map<string, StartOutcome>;
  /** StartExecution and RedriveExecution answers that were throttled (each tried again after a back-off). */
  throttles: number;
}

/** StartExecution throttled after the SDK's own retries: tried again after 1, 2, 4 and 8 s, then left to the next pass. */
export const START_BACKOFF: ThrottleBackoff = { attempts: 5, baseMs: 1_000, maxMs: 8_000 };

/**
 * Start (or redrive) each planned execution at the settings' pace (startsPerSecond); a name taken by an ended
 * execution moves to the next attempt. A start Step Functions still throttles after the back-off is `throttled`, and
 * so is every start after it in this pass: the next pass starts them (their names are deterministic).
 */
async function startPlanned(
  ports: PassPorts,
  starts: readonly PlannedStart[],
  states: ReadonlyMap<string, ClusterFleetState>,
  now: number,
): Promise<Started> {
  const started: Started = { states: [], events: [], outcomes: new Map(), throttles: 0 };
  let throttledOut = false;
  const pace = startPace(ports.fleet.settings.startsPerSecond);
  const results = await paced(starts, ports.clock, pace, async (planned) => {
    if (throttledOut) return { throttled: true as const };
    const attempt = await retryThrottled(ports.clock, START_BACKOFF, () => startOne(ports.executions, planned));
    started.throttles += attempt.throttles;
    if (attempt.ok) return { result: attempt.value };
    throttledOut = true;
    return { throttled: true as const };
  });
  starts.forEach((planned, index) => {
    const outcome = results[index]!;
    const { executionName, attempt } = planned;
    if ('throttled' in outcome) {
      started.outcomes.set(planned.clusterId, { how: 'throttled', executionName, attempt });
      return;
    }
    const result = outcome.result;
    if (!result) {
      started.outcomes.set(planned.clusterId, { how: 'not-started', executionName, attempt });
      return;
    }
    const { state, event } = recordStart(result.start, result.result, states.get(planned.clusterId), now);
    started.states.push(state);
    started.events.push(event);
    started.outcomes.set(planned.clusterId, {
      how: result.result.how,
      executionName: result.result.name,
      attempt: result.start.attempt,
    });
  });
  return started;
}

async function startOne(
  executions: UpdateExecutions,
  planned: PlannedStart,
): Promise<{ start: PlannedStart; result: StartResult } | undefined> {
  let start = planned;
  for (let tries = 0; tries < MAX_NAME_ATTEMPTS; tries++) {
    const request = { name: start.executionName, input: start.input };
    const result = start.resume ? await executions.resume(start.resume, request) : await executions.start(request);
    if (result.how !== 'name-taken') return { start, result };
    start = withNextAttempt(start);
  }
  return undefined;
}

function registryFigures(diff: RegistryDiff): DispatchReport['registry'] {
  return {
    added: diff.added.length,
    modified: diff.modified.length,
    removed: diff.removed.length,
    ignored: 0,
    changed: [...diff.changed].slice(0, LISTED_CHANGES),
  };
}

/** The dashboard's figures of a pass: clusters behind their target, updates started, halted rollouts. */
export function passMetrics(report: DispatchReport): TaskMetric[] {
  const started = report.starts.filter((s) => s.how === 'started' || s.how === 'redriven').length;
  return [
    { name: CLM_METRICS.clustersBehindTarget, value: report.summary.behindTarget },
    { name: CLM_METRICS.updatesStarted, value: started },
    { name: CLM_METRICS.updatesRunning, value: report.summary.running + started },
    { name: CLM_METRICS.haltedWaves, value: report.halts.length },
    { name: CLM_METRICS.startsThrottled, value: report.throttles },
  ];
}
