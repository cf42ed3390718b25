/** Time, injectable so the simulator and tests run on a virtual clock. Milliseconds since the epoch. */
export interface Clock {
  now(): number;
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
