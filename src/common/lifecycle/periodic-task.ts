/**
 * A job run every `seconds` (0: never), one run at a time in this process. The timer alone does
 * not keep the process alive; `stop` clears it and waits for a run in progress. `run` reports its
 * own failures: one that throws is dropped so the next tick still comes.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly run: () => Promise<void>) {}

  start(seconds: number): void {
    if (seconds === 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), seconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.run()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
      });
  }
}
