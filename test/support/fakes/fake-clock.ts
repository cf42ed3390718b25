import type { Clock } from '../../../lambdas/ports/clock';

/** A virtual clock: time moves only when a test calls `advance`. */
export class FakeClock implements Clock {
  constructor(private current = Date.parse('2024-05-01T12:00:00Z')) {}

  now(): number {
    return this.current;
  }

  /** A task's in-process wait: time moves on at once. */
  async sleep(ms: number): Promise<void> {
    this.advance(Math.max(0, ms));
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
