import type { FleetEvent } from '../../contracts/fleet-events';
import type { Cluster, Problem } from '../model/cluster';
import { createAccountFilter } from '../selection/select-clusters';
import type { Assessment, Priority, SkipReason } from './assess-cluster';
import { assessCluster } from './assess-cluster';
import { announceBlocks } from './announce-blocks';
import { reconcileFleet } from './reconcile-fleet';
import type { FleetSettings } from './fleet-settings';
import type { ClusterFleetState, DispatchAction, ExecutionOutcome, WaveHalt, WaveOverride } from './fleet-state';
import type { FleetTarget } from './fleet-targets';
import type { GateOptions, RolloutGate, RolloutMember, RolloutView, Wave } from './waves';
import { compareWaves, gateRollout, waveOf } from './waves';
import { haltEvents } from './fleet-events';
import { executionName } from './execution-name';
import { allocateStarts } from './start-capacity';

export interface DispatchInput {
  /** The whole registry, read once, with stored status overlaid where the registry keeps none. */
  readonly clusters: readonly Cluster[];
  /** From resolveFleetTargets. */
  readonly targets: ReadonlyMap<string, FleetTarget>;
  /** The FLEET partition as read at the start of the pass. */
  readonly fleet: {
    readonly clusters: ReadonlyMap<string, ClusterFleetState>;
    readonly halts: readonly WaveHalt[];
    readonly overrides: readonly WaveOverride[];
  };
  /** What the execution service says about the executions the records hold as running, by name. */
  readonly outcomes: ReadonlyMap<string, ExecutionOutcome>;
  /** Operator controls per cluster (pause, abort). */
  readonly controls?: ReadonlyMap<string, { paused?: boolean; abortRequested?: boolean; reason?: string }>;
  /** Cluster-update executions running across the fleet now, ours or not. */
  readonly running: number;
  /** Only these clusters may start (a push, a registry change); waves are still judged on the whole fleet. */
  readonly scope?: ReadonlySet<string>;
  readonly settings: FleetSettings;
  readonly now: number;
  /** What asked for this pass: webhook, registry, schedule, cli. */
  readonly trigger: string;
}

export interface PlannedStart {
  readonly clusterId: string;
  /** For renaming a start whose name is taken (withNextAttempt). */
  readonly localId: string;
  readonly action: DispatchAction;
  readonly targetVersion: string;
  readonly previousVersion: string;
  readonly executionName: string;
  readonly attempt: number;
  readonly priority: Priority;
  readonly wave: string;
  readonly message: string;
  /** A dead execution to redrive; if Step Functions refuses, start `executionName` instead. */
  readonly resume?: { readonly name: string; readonly arn?: string };
  /**
   * The state machine input (contracts ClusterUpdateInput), `options` spelled out: the ASL reads `$.options` (the
   * rollouts' input), and Step Functions fails a path that the input lacks — the tasks' schema default never reaches
   * the state machine's JSON.
   */
  readonly input: {
    readonly clusterId: string;
    readonly action: 'provision' | 'decommission';
    readonly options: {
      readonly applyOnly: boolean;
      /** A run the pass starts to renew nodes (dispatch/renewal-starts.ts). */
      readonly nodeRoll?: { readonly kind: 'renew'; readonly requestedBy: string };
    };
    readonly trigger: string;
    /** The target this pass resolved: commit statuses of the execution's start go on its commits. */
    readonly targetVersion: string;
  };
}

export interface SkippedCluster {
  readonly clusterId: string;
  readonly reason: SkipReason;
  readonly message: string;
  readonly targetVersion?: string;
}

export interface DispatchPlan {
  /** In start order: priority, wave, longest unattended first. */
  readonly starts: readonly PlannedStart[];
  /** In-scope clusters that need work or attention but get no execution, and why (up-to-date ones are only counted). */
  readonly skipped: readonly SkippedCluster[];
  readonly halts: readonly WaveHalt[];
  readonly rollouts: readonly RolloutView[];
  /** Cluster states to write back (outcomes learned, block reasons announced). */
  readonly states: readonly ClusterFleetState[];
  readonly events: readonly FleetEvent[];
  readonly problems: readonly { readonly clusterId: string; readonly problem: Problem }[];
  readonly summary: {
    readonly clusters: number;
    readonly upToDate: number;
    readonly running: number;
    readonly capacity: number;
    readonly starts: number;
    readonly skipped: number;
  };
}

interface Candidate {
  readonly cluster: Cluster;
  readonly assessment: Extract<Assessment, { kind: 'work' }>;
  readonly wave: Wave;
  readonly lastStartedAt: number;
}

/**
 * One dispatcher pass, pure: learn how running executions ended, judge every cluster (CLM's priorities),
 * gate updates by rollout waves, and pick what to start under the caps (start-capacity.ts). The caller starts
 * `starts` (see recordStart), writes `states` and `halts`, sends `events` and records `problems`.
 */
export function planDispatch(input: DispatchInput): DispatchPlan {
  const reconciled = reconcileFleet(input);
  const accepts = createAccountFilter(input.settings);
  const assessed: Assessed[] = input.clusters.map((cluster) => ({
    cluster,
    wave: waveOf(cluster, input.settings),
    assessment: assessCluster({
      cluster,
      target: input.targets.get(cluster.id),
      state: reconciled.states.get(cluster.id),
      controls: input.controls?.get(cluster.id),
      accepts,
      settings: input.settings,
      now: input.now,
    }),
  }));
  const gates = gateRollouts(assessed, input.fleet.overrides, {
    soak: { ms: input.settings.waveSoakMs, now: input.now },
    failureTolerance: input.settings.waveFailureTolerance,
  });
  const sorted = sortOut(assessed, gates, reconciled.states, input.scope);
  const running = Math.max(input.running, reconciled.stillRunning);
  const capacity = Math.max(0, input.settings.maxConcurrent - running);
  const allocation = allocateStarts(sorted.candidates, {
    runningFleetWide: running,
    states: reconciled.states,
    clusters: new Map(input.clusters.map((c) => [c.id, c])),
    settings: input.settings,
  });
  const starts = allocation.chosen.map((c) => plannedStart(c, input.trigger));
  const skipped = [...sorted.skipped, ...allocation.waiting];
  const halts = [...gates.values()].flatMap((gate) => (gate.halt ? [gate.halt] : []));
  const blocked = announceBlocks(input, reconciled.states, skipped, assessed);
  return {
    starts,
    skipped,
    halts,
    rollouts: [...gates.values()].map((gate) => gate.view),
    states: [...new Map([...reconciled.changed, ...blocked.changed].map((s) => [s.clusterId, s])).values()],
    events: [...reconciled.events, ...haltEvents(input.fleet.halts, halts), ...blocked.events],
    problems: [...reconciled.problems, ...blocked.problems],
    summary: {
      clusters: input.clusters.length,
      upToDate: sorted.upToDate,
      running,
      capacity,
      starts: starts.length,
      skipped: skipped.length,
    },
  };
}

export interface Assessed {
  readonly cluster: Cluster;
  readonly wave: Wave;
  readonly assessment: Assessment;
}

/** Split the judged clusters into start candidates (best first) and skips (in scope only). */
function sortOut(
  assessed: readonly Assessed[],
  gates: ReadonlyMap<string, RolloutGate>,
  states: ReadonlyMap<string, ClusterFleetState>,
  scope: ReadonlySet<string> | undefined,
): { candidates: Candidate[]; skipped: SkippedCluster[]; upToDate: number } {
  const inScope = (id: string) => !scope || scope.has(id);
  const skipped: SkippedCluster[] = [];
  const candidates: Candidate[] = [];
  let upToDate = 0;
  for (const { cluster, wave, assessment } of assessed) {
    if (assessment.kind === 'skip') {
      if (assessment.reason === 'up-to-date') upToDate++;
      else if (assessment.reason !== 'decommissioned' && inScope(cluster.id)) skipped.push(skipOf(cluster, assessment));
      continue;
    }
    if (!inScope(cluster.id)) continue;
    const closed = assessment.member ? gates.get(assessment.member.configVersion)?.closed(wave) : undefined;
    // A failed cluster may retry (after back-off) inside its own halted wave: that is how a halt heals.
    if (closed && assessment.member?.state !== 'failed') {
      const reason = closed.halted ? 'wave-halted' : 'wave-waiting';
      skipped.push({ clusterId: cluster.id, reason, message: closed.message, targetVersion: assessment.targetVersion });
      continue;
    }
    const lastStartedAt = states.get(cluster.id)?.execution?.startedAt ?? -1;
    candidates.push({ cluster, assessment, wave, lastStartedAt });
  }
  candidates.sort(compareCandidates);
  return { candidates, skipped, upToDate };
}

function gateRollouts(
  assessed: readonly { cluster: Cluster; wave: Wave; assessment: Assessment }[],
  overrides: readonly WaveOverride[],
  options: GateOptions,
): Map<string, RolloutGate> {
  const members = new Map<string, RolloutMember[]>();
  for (const { cluster, wave, assessment } of assessed) {
    if (!assessment.member || !assessment.targetVersion) continue;
    const list = members.get(assessment.member.configVersion) ?? [];
    const { state, failure, doneAt } = assessment.member;
    list.push({
      clusterId: cluster.id,
      wave,
      state,
      targetVersion: assessment.targetVersion,
      ...(failure ? { failure } : {}),
      ...(doneAt !== undefined ? { doneAt } : {}),
    });
    members.set(assessment.member.configVersion, list);
  }
  const byVersion = new Map(overrides.map((o) => [o.configVersion, o]));
  return new Map(
    [...members].map(([configVersion, list]) => [
      configVersion,
      gateRollout(configVersion, list, byVersion.get(configVersion), options),
    ]),
  );
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.assessment.priority - a.assessment.priority ||
    compareWaves(a.wave, b.wave) ||
    a.lastStartedAt - b.lastStartedAt ||
    a.cluster.id.localeCompare(b.cluster.id)
  );
}

function plannedStart(candidate: Candidate, trigger: string): PlannedStart {
  const { cluster, assessment, wave } = candidate;
  return {
    clusterId: cluster.id,
    localId: cluster.localId,
    action: assessment.action,
    targetVersion: assessment.targetVersion,
    previousVersion: cluster.status.currentVersion,
    executionName: executionName({
      clusterId: cluster.id,
      localId: cluster.localId,
      action: assessment.action,
      targetVersion: assessment.targetVersion,
      attempt: assessment.attempt,
    }),
    attempt: assessment.attempt,
    priority: assessment.priority,
    wave: wave.label,
    message: assessment.message,
    ...(assessment.resume ? { resume: assessment.resume } : {}),
    input: {
      clusterId: cluster.id,
      action: assessment.action === 'decommission' ? 'decommission' : 'provision',
      options: { applyOnly: false },
      trigger,
      targetVersion: assessment.targetVersion,
    },
  };
}

function skipOf(cluster: Cluster, assessment: Extract<Assessment, { kind: 'skip' }>): SkippedCluster {
  return {
    clusterId: cluster.id,
    reason: assessment.reason,
    message: assessment.message,
    ...(assessment.targetVersion ? { targetVersion: assessment.targetVersion } : {}),
  };
}
