/** The simulator's virtual clock, as opposed to the system clock (absent): a lease records which one it is in. */
export type ClockKind = 'simulated';

/** Time, injectable so the simulator and tests run on a virtual clock. Milliseconds since the epoch. */
export interface Clock {
  now(): number;
  /** Absent for the system clock. Times on another clock cannot be compared with this one's. */
  readonly kind?: ClockKind;
  /**
   * Let `ms` pass, in process (a task that waits for something to change: RollNodePool while a drain is blocked).
   * Real time with the system clock; a virtual clock moves on (the simulator processes what happens meanwhile).
   */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((done) => setTimeout(done, Math.max(0, ms))),
};
