import type { ThrottlerStorage } from '@nestjs/throttler';
import { FixedWindowStorage } from './fixed-window.storage';

describe('FixedWindowStorage', () => {
  let now = 1_000_000;
  let storage: FixedWindowStorage;
  beforeEach(() => {
    now = 1_000_000;
    storage = new FixedWindowStorage(() => now);
  });
  afterEach(() => storage.close());

  const hit = () => storage.count('k', 60_000, 3, 60_000, 'p');

  it('counts hits in a window and blocks past the limit until the block ends', () => {
    expect(hit().totalHits).toBe(1);
    hit();
    const third = hit();
    expect(third).toMatchObject({ totalHits: 3, isBlocked: false, timeToExpire: 60 });
    now += 10_000;
    const fourth = hit();
    expect(fourth).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 60 });
    now += 59_000;
    expect(hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
    now += 1_000;
    // The block has ended; the count is the new window's (started by the hit just before).
    expect(hit()).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('starts a new window once the old one has passed', () => {
    hit();
    hit();
    now += 60_000;
    expect(hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
  });

  it('keeps keys and throttler names apart', () => {
    hit();
    expect(storage.count('other', 60_000, 3, 60_000, 'p').totalHits).toBe(1);
    expect(storage.count('k', 60_000, 3, 60_000, 'q').totalHits).toBe(1);
  });

  it('answers the longest block among counters, without counting a hit', () => {
    for (let i = 0; i < 4; i++) hit();
    now += 15_000;
    const counters = [
      ['other', 'p'],
      ['k', 'p'],
    ] as const;
    expect(storage.longestBlock(counters)).toBe(45_000);
    expect(storage.longestBlock(counters)).toBe(45_000);
    expect(storage.longestBlock([['other', 'p']])).toBe(0);
    now += 45_000;
    expect(storage.longestBlock(counters)).toBe(0);
  });

  it('goes on from a count mirrored from Redis; a late, lower answer of that window never lowers it', () => {
    const redis = (totalHits: number, timeToExpire = 50) => ({
      totalHits,
      timeToExpire,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    storage.mirror('k', 'p', redis(2));
    expect(hit()).toMatchObject({ totalHits: 3, timeToExpire: 50 });
    storage.mirror('k', 'p', redis(1));
    expect(hit()).toMatchObject({ totalHits: 4, isBlocked: true });
    // Redis's window ends later than this one: Redis began a new window, which this one takes.
    storage.mirror('k', 'p', redis(1, 60 + 50));
    expect(hit()).toMatchObject({ totalHits: 2, timeToExpire: 110 });
  });

  it("is a ThrottlerStorage: increment resolves to count's record", async () => {
    const viaInterface: ThrottlerStorage = storage;
    await expect(viaInterface.increment('i', 60_000, 3, 60_000, 'p')).resolves.toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
    expect(storage.count('i', 60_000, 3, 60_000, 'p').totalHits).toBe(2);
  });
});
