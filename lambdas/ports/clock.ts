/** Time, injectable so the simulator and tests run on a virtual clock. Milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
