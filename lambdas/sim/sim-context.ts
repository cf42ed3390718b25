import { Prng } from './prng';
import type { SimEvent, SimEventInput, WorldState } from './world-state';

/**
 * The world's engine room, shared by the AWS and Kubernetes modules: the state, the seeded PRNG, the
 * virtual clock and the event queue. Not exported from the package; `SimulatedWorld` is the public face.
 */
export class SimContext {
  readonly rng: Prng;
  /** Kubernetes clusters whose controllers must run before the world is consistent again (not persisted). */
  readonly dirty = new Set<string>();
  /**
   * Clusters this process called a port of (NO_CLUSTER for ports without one), since the world was loaded: their
   * shards are this process's to save even if another process saved them meanwhile (persistence.ts). Not persisted.
   */
  readonly acted = new Set<string>();

  constructor(readonly state: WorldState) {
    this.rng = new Prng(state);
  }

  get now(): number {
    return this.state.now;
  }

  get timings(): WorldState['scenario']['timings'] {
    return this.state.scenario.timings;
  }

  /** Seconds since the world started (scenario times are given this way). */
  get elapsedSeconds(): number {
    return (this.state.now - this.state.startTime) / 1000;
  }

  nextSeq(): number {
    this.state.seq += 1;
    return this.state.seq;
  }

  iso(time = this.state.now): string {
    return new Date(time).toISOString();
  }

  /** Queue an event `delaySeconds` from now; events at the same time run in the order they were queued. */
  schedule(delaySeconds: number, event: SimEventInput): void {
    const full = { ...event, at: this.state.now + Math.round(delaySeconds * 1000), seq: this.nextSeq() } as SimEvent;
    const events = this.state.events;
    let low = 0;
    let high = events.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const e = events[mid];
      if (e.at < full.at || (e.at === full.at && e.seq < full.seq)) low = mid + 1;
      else high = mid;
    }
    events.splice(low, 0, full);
  }

  /** Remove and return the first event due at or before `time`. */
  popDue(time: number): SimEvent | undefined {
    const first = this.state.events[0];
    if (!first || first.at > time) return undefined;
    this.state.events.shift();
    return first;
  }

  pdbViolation(detail: string): void {
    this.state.invariants.pdbViolations += 1;
    this.note(detail);
  }

  terminatedTwice(detail: string): void {
    this.state.invariants.nodesTerminatedTwice += 1;
    this.note(detail);
  }

  /** Add a line to `world.invariants().details` (the last 200 are kept). */
  note(detail: string): void {
    const details = this.state.invariants.details;
    details.push(`t=${this.elapsedSeconds}s ${detail}`);
    if (details.length > 200) details.splice(0, details.length - 200);
  }
}
