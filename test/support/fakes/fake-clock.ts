import type { Clock } from '../../../lambdas/ports/clock';

/** A virtual clock: time moves only when a test calls `advance`. */
export class FakeClock implements Clock {
  constructor(private current = Date.parse('2024-05-01T12:00:00Z')) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
