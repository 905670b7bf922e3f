import { Clock } from '../../src/common/clock/clock';

/** A clock a test moves by hand: `createTestApp({ override: (b) => b.overrideProvider(Clock).useValue(clock) })`. */
export class FakeClock extends Clock {
  private current = Date.now();

  override now(): Date {
    return new Date(this.current);
  }

  advance(seconds: number): void {
    this.current += seconds * 1000;
  }
}
