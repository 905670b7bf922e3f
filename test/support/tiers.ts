/**
 * `describe` on the embedded tier, `describe.skip` on the PostgreSQL one: for specs of the embedded
 * default only (its data directory, the CLI with no DATABASE_URL), which start their own embedded
 * server whatever the tier, so a second tier would run them unchanged (CI's time).
 */
export const describeEmbeddedTier: jest.Describe = process.env.TEST_DATABASE_URL
  ? describe.skip
  : describe;
