import { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';

/**
 * A server job run every `intervalSeconds()` (0: never), one run at a time in this process. The
 * timer alone does not keep the process alive; at shutdown it stops, the run in progress is asked
 * to end early (`interrupt`) and is waited for.
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  protected abstract intervalSeconds(): number;
  /** One run; it reports its own failures (one that throws is dropped, the next tick still comes). */
  protected abstract runOnce(): Promise<void>;
  protected abstract interrupt(): void;

  onApplicationBootstrap(): void {
    const seconds = this.intervalSeconds();
    if (seconds === 0) return;
    this.timer = setInterval(() => this.tick(), seconds * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.interrupt();
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.runOnce()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
      });
  }
}
