/**
 * A pass run again and again in the background, the way a controller reconciles: the first pass starts at once,
 * each next one `intervalMs` after the previous one ended, until stop(), which waits for the pass under way. A pass
 * that fails is recorded in `errors` and the loop goes on: the test decides what an error means.
 */
export class BackgroundLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly errors: Error[],
  ) {}

  start(intervalMs: number): void {
    const tick = () => {
      this.running = this.pass()
        .catch((error: Error) => {
          this.errors.push(error);
        })
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = undefined;
    if (timer) clearTimeout(timer);
    await this.running;
  }
}
