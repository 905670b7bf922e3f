import { expectMigrateFromEmpty } from '../support/cli';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';

/** db:migrate on DATABASE_URL: an empty database of the run's kind (a server, or an embedded one). */
describe('command line: db:migrate on DATABASE_URL', () => {
  let db: EmptyDatabase;
  beforeAll(async () => {
    db = await emptyDatabase();
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = db.url;
    process.env.DATABASE_POOL_SIZE = '2';
  });
  afterAll(() => db.stop());

  it('applies every migration once; commands then work', async () => {
    await expectMigrateFromEmpty();
  }, 120_000);
});
