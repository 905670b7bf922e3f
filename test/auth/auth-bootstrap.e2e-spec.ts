import { DataSource } from 'typeorm';
import { User } from '../../src/auth/user.entity';
import { Organization } from '../../src/org/organization.entity';
import { subjectFor } from '../support/auth';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { sharedIdentityProvider } from '../support/identity-provider';
import { createTestApp } from '../support/test-app';

describe('BOOTSTRAP_ORG_NAME + BOOTSTRAP_ADMIN_EMAIL', () => {
  let db: EmptyDatabase;
  beforeAll(async () => {
    db = await emptyDatabase();
  }, 60_000);
  afterAll(() => db?.stop());

  const env = (email: string) => ({
    DATABASE_URL: db.url,
    BOOTSTRAP_ORG_NAME: 'First Care',
    BOOTSTRAP_ADMIN_EMAIL: email,
  });

  it('creates the first org and admin on an empty database, once; the admin then signs in', async () => {
    const t = await createTestApp({ env: env('Founder@Example.com') });
    try {
      const users = await t.app.get(DataSource).getRepository(User).find();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'founder@example.com', role: 'admin' });
      const org = await t.app.get(DataSource).getRepository(Organization).findOneByOrFail({
        id: users[0].orgId,
      });
      expect(org.name).toBe('First Care');

      const idp = await sharedIdentityProvider();
      const token = await idp.token({
        claims: { email: 'founder@example.com', sub: subjectFor('founder@example.com') },
      });
      const res = await t.http().post('/api/auth/login').send({ id_token: token }).expect(200);
      expect(res.body.user).toMatchObject({ org_id: org.id, role: 'admin' });
    } finally {
      await t.close();
    }
    // A second boot (with a different email) finds a user and creates nothing.
    const again = await createTestApp({ env: env('someone-else@example.com') });
    try {
      expect(await again.app.get(DataSource).getRepository(User).count()).toBe(1);
      expect(await again.app.get(DataSource).getRepository(Organization).count()).toBe(1);
    } finally {
      await again.close();
    }
  }, 60_000);
});
