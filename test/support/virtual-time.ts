/**
 * Several executions at once on one simulated world, in virtual time: each waits (a Wait state, a task's in-process
 * sleep) through `wait`, and only when every one of them waits (or has ended) does the world's clock move, to the
 * earliest wake-up. So executions overlap as they would in Step Functions, and the world sees their calls in time
 * order, deterministically (ties wake in the order they began to wait).
 */
export class VirtualTime {
  private readonly sleepers: { at: number; seq: number; wake: () => void }[] = [];
  private awake = 0;
  private seq = 0;

  constructor(private readonly world: { readonly now: number; advanceTo(time: number): void }) {}

  /** A clock for the ports: `sleep` is a wait here. */
  get clock(): { now(): number; sleep(ms: number): Promise<void> } {
    return { now: () => this.world.now, sleep: (ms) => this.wait(ms) };
  }

  /** Resolves once the world's clock has reached now + ms and every other run is waiting too. */
  wait(ms: number): Promise<void> {
    return new Promise((wake) => {
      this.sleepers.push({ at: this.world.now + Math.max(0, ms), seq: this.seq++, wake });
      this.awake--;
      this.step();
    });
  }

  /** Run them all concurrently; each result in order. */
  async all<T>(runs: readonly (() => Promise<T>)[]): Promise<T[]> {
    this.awake += runs.length;
    return Promise.all(
      runs.map(async (run) => {
        try {
          return await run();
        } finally {
          this.awake--;
          this.step();
        }
      }),
    );
  }

  private step(): void {
    if (this.awake > 0 || this.sleepers.length === 0) return;
    this.sleepers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = this.sleepers.shift()!;
    if (next.at > this.world.now) this.world.advanceTo(next.at);
    this.awake++;
    next.wake();
  }
}
