import { bootOnHostile, canChown, HOSTILE_CASES } from '../support/hostile-data-dir';
import { describeEmbeddedTier } from '../support/tiers';

/**
 * The embedded data directory, and the key file beside it, another local user could control
 * (docs/embedded-database.md, docs/privacy.md): the boot refuses it with one line naming the path
 * and the fix, and chmods nothing outside it. The server runs as this user; the traps are another
 * user's (`nobody`) where that needs root.
 */
jest.setTimeout(180_000);

describeEmbeddedTier('a hostile embedded data directory', () => {
  const cases = HOSTILE_CASES.filter((c) => canChown || !c.needsRoot);

  it.each(cases.map((c) => [c.name, c] as const))('refuses: %s', async (_name, c) => {
    const outcome = await bootOnHostile(c);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.bootLine).toMatch(/boot failed/);
    expect(outcome.bootLine).toMatch(c.expected);
    expect(outcome.bootLine).toMatch(/PGLITE_DATA_DIR|remove it|chmod go-w|chown/);
    expect(outcome.chmodded).toEqual([]);
  });
});
