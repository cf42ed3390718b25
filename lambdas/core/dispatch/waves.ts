import type { Cluster } from '../model/cluster';
import type { FleetSettings } from './fleet-settings';
import type { WaveHalt, WaveOverride } from './fleet-state';

/** A wave: an environment (and, by default, one criticality level of it). */
export interface Wave {
  readonly label: string;
  /** Sort key: environment rank, unlisted environment name, criticality. */
  readonly order: readonly [number, string, number];
}

/** Where one cluster of a rollout stands. */
export type MemberState = 'done' | 'running' | 'pending' | 'failed';

export interface RolloutMember {
  readonly clusterId: string;
  readonly wave: Wave;
  readonly state: MemberState;
  readonly targetVersion: string;
  /** For failed members: the error, and when. */
  readonly failure?: { readonly error: string; readonly at: number };
  /** For done members: when they reached the rollout's version, if known. */
  readonly doneAt?: number;
}

/** How long a finished wave soaks before the next starts (`waveSoakMs`), and the pass's time. */
export interface WaveSoak {
  readonly ms: number;
  readonly now: number;
}

/** How a rollout's waves are gated beyond their order: a soak between them, failures a wave tolerates. */
export interface GateOptions {
  readonly soak?: WaveSoak;
  /**
   * The share of a wave's clusters that may have failed without halting it (`waveFailureTolerance`; 0: the first
   * failure halts). Failures within it hold nothing back; the failed clusters retry after their back-off.
   */
  readonly failureTolerance?: number;
}

export type WaveStatus = 'done' | 'in-progress' | 'waiting' | 'halted' | 'held';

export interface WaveView {
  readonly wave: string;
  readonly status: WaveStatus;
  readonly clusters: number;
  readonly done: number;
  readonly running: number;
  readonly pending: number;
  readonly failed: number;
}

/** One rollout (all clusters heading for one config version), wave by wave. */
export interface RolloutView {
  readonly configVersion: string;
  readonly waves: readonly WaveView[];
  readonly halted: boolean;
  readonly overridden?: WaveOverride;
}

/** What one rollout lets start. */
export interface RolloutGate {
  readonly view: RolloutView;
  readonly halt?: WaveHalt;
  /** Undefined when the wave may start clusters; otherwise why not (and whether that is a halt). */
  closed(wave: Wave): { readonly halted: boolean; readonly message: string } | undefined;
}

export function waveOf(cluster: Pick<Cluster, 'environment' | 'criticalityLevel'>, settings: FleetSettings): Wave {
  const rank = settings.waveOrder.indexOf(cluster.environment);
  const listed = rank >= 0;
  const criticality = settings.wavesByCriticality ? cluster.criticalityLevel : 0;
  const label = settings.wavesByCriticality
    ? `${cluster.environment} (criticality ${cluster.criticalityLevel})`
    : cluster.environment;
  return {
    label,
    order: [listed ? rank : settings.waveOrder.length, listed ? '' : cluster.environment, criticality],
  };
}

export function compareWaves(a: Wave, b: Wave): number {
  return a.order[0] - b.order[0] || a.order[1].localeCompare(b.order[1]) || a.order[2] - b.order[2];
}

const MAX_LISTED_FAILURES = 10;

/**
 * Walk one rollout's waves in order. A wave with a failed member halts: it and every later wave start
 * nothing new (the failed clusters themselves still retry after back-off). Otherwise the first wave not
 * yet done is open and every later wave waits for it, and for `soak.ms` after the last member of the wave before it
 * finished. An operator's override makes failed members count as neither done nor blocking, so the waves proceed; so
 * does a failure tolerance for failures within it.
 */
export function gateRollout(
  configVersion: string,
  members: readonly RolloutMember[],
  override: WaveOverride | undefined,
  options: GateOptions = {},
): RolloutGate {
  const waves = groupByWave(members);
  const short = shortVersion(configVersion);
  const views: WaveView[] = [];
  let closedFrom: { index: number; halted: boolean; message: string } | undefined;
  let halt: WaveHalt | undefined;
  waves.forEach((entry, index) => {
    const counts = countStates(entry.members);
    const base = { wave: entry.wave.label, clusters: entry.members.length, ...counts };
    if (closedFrom) {
      views.push({ ...base, status: closedFrom.halted ? 'held' : 'waiting' });
      return;
    }
    if (counts.failed > tolerated(entry.members.length, options.failureTolerance) && !override) {
      halt = haltOf(
        configVersion,
        entry.wave.label,
        entry.members,
        waves.slice(index + 1).map((w) => w.wave.label),
      );
      closedFrom = { index, halted: true, message: `wave ${entry.wave.label} is halted at ${short}: ${halt.reason}` };
      views.push({ ...base, status: 'halted' });
      return;
    }
    // Failed members left here are overridden or within the tolerance: they hold nothing back.
    if (counts.pending + counts.running > 0) {
      const done = override ? counts.done + counts.failed : counts.done;
      const failed = !override && counts.failed ? ` (${counts.failed} failed, within the tolerance)` : '';
      closedFrom = {
        index: index + 1,
        halted: false,
        message: `waiting for wave ${entry.wave.label} at ${short}: ${done} of ${entry.members.length} clusters done${failed}`,
      };
      views.push({ ...base, status: 'in-progress' });
      return;
    }
    views.push({ ...base, status: 'done' });
    if (index < waves.length - 1) closedFrom = soaking(entry, index, short, options.soak);
  });
  const order = new Map(waves.map((entry, index) => [entry.wave.label, index]));
  return {
    view: { configVersion, waves: views, halted: halt !== undefined, ...(override ? { overridden: override } : {}) },
    ...(halt ? { halt } : {}),
    closed(wave) {
      if (!closedFrom) return undefined;
      const index = order.get(wave.label) ?? waves.length;
      return index >= closedFrom.index ? { halted: closedFrom.halted, message: closedFrom.message } : undefined;
    },
  };
}

/** Failed members a wave of `members` clusters tolerates. */
function tolerated(members: number, share = 0): number {
  return Math.floor(members * share);
}

/** A rollout's members by wave, in wave order. */
function groupByWave(members: readonly RolloutMember[]): { wave: Wave; members: RolloutMember[] }[] {
  const byWave = new Map<string, { wave: Wave; members: RolloutMember[] }>();
  for (const member of members) {
    const entry = byWave.get(member.wave.label) ?? { wave: member.wave, members: [] };
    entry.members.push(member);
    byWave.set(member.wave.label, entry);
  }
  return [...byWave.values()].sort((a, b) => compareWaves(a.wave, b.wave));
}

/**
 * A finished wave still soaking closes the waves after it: until `waveSoakMs` after its last member reached the
 * version (members that were at it already count as long done).
 */
function soaking(
  entry: { readonly wave: Wave; readonly members: readonly RolloutMember[] },
  index: number,
  short: string,
  soak: WaveSoak | undefined,
): { index: number; halted: boolean; message: string } | undefined {
  if (!soak || soak.ms <= 0) return undefined;
  const last = Math.max(...entry.members.map((m) => m.doneAt ?? -Infinity));
  if (!Number.isFinite(last) || soak.now >= last + soak.ms) return undefined;
  const until = new Date(last + soak.ms).toISOString();
  return { index: index + 1, halted: false, message: `wave ${entry.wave.label} at ${short} soaks until ${until}` };
}

function countStates(members: readonly RolloutMember[]): Record<MemberState, number> {
  const counts: Record<MemberState, number> = { done: 0, running: 0, pending: 0, failed: 0 };
  for (const member of members) counts[member.state]++;
  return counts;
}

function haltOf(
  configVersion: string,
  wave: string,
  members: readonly RolloutMember[],
  heldWaves: readonly string[],
): WaveHalt {
  const failed = members
    .filter((m) => m.state === 'failed')
    .sort((a, b) => (a.failure?.at ?? 0) - (b.failure?.at ?? 0) || a.clusterId.localeCompare(b.clusterId));
  const listed = failed.slice(0, MAX_LISTED_FAILURES).map((m) => ({
    clusterId: m.clusterId,
    targetVersion: m.targetVersion,
    error: m.failure?.error ?? 'failed',
  }));
  const first = listed[0];
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
  return {
    configVersion,
    wave,
    heldWaves: [...heldWaves],
    failed: listed,
    failedCount: failed.length,
    since: failed[0]?.failure?.at ?? 0,
    reason: `${first.clusterId} failed updating to ${shortVersion(configVersion)}: ${first.error}${more}`,
  };
}

/** A config version for messages: a commit's first 12 characters, or the whole id when it is short. */
export function shortVersion(configVersion: string): string {
  return /^[0-9a-f]{40}$/i.test(configVersion) ? configVersion.slice(0, 12) : configVersion;
}
