import { dirname, join } from 'node:path';
import { DataSource } from 'typeorm';
import { User } from '../../src/auth/user.entity';
import type { HealthReport } from '../../src/health/health.service';
import { CanonicalIdpIssuer1795410000000 } from '../../src/database/migrations/1795410000000-CanonicalIdpIssuer';
import { subjectFor } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import { createUser, unique } from '../support/factories';
import { sharedIdentityProvider, TestIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

// nestjs-pino 5 exports only its root; its test hook lives in the file beside the entry point.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { __resetOutOfContextForTests } = require(
  join(dirname(require.resolve('nestjs-pino')), 'PinoLogger.js'),
) as { __resetOutOfContextForTests: () => void };

/**
 * Google signs with `https://accounts.google.com` and `accounts.google.com`: the test provider's
 * issuer with and without its scheme stands for the two. OIDC_ISSUER lists the URL first, so the
 * URL is the canonical spelling every account stores.
 */
describe('issuer spellings are one issuer', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let users: ReturnType<DataSource['getRepository']>;

  beforeAll(async () => {
    idp = await sharedIdentityProvider();
    t = await createTestApp({ env: { OIDC_ISSUER: `${idp.issuer},${idp.bareIssuer}` } });
    users = t.app.get(DataSource).getRepository(User);
  });
  afterAll(() => t.close());

  const login = async (email: string, iss: string) =>
    t
      .http()
      .post('/api/auth/login')
      .send({ id_token: await idp.token({ claims: { email, sub: subjectFor(email), iss } }) });
  const linkOf = async (id: string) => {
    const u = (await users.findOneBy({ id })) as User;
    return { issuer: u.idpIssuer, subject: u.idpSubject };
  };

  it('a user linked under the URL spelling signs in with a token from the bare one', async () => {
    const user = await createUser(t.app);
    expect((await login(user.email, idp.issuer)).status).toBe(200);
    const res = await login(user.email, idp.bareIssuer);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(await linkOf(user.id)).toEqual({ issuer: idp.issuer, subject: subjectFor(user.email) });
  });

  it('a first sign-in under the bare spelling stores the canonical one', async () => {
    const user = await createUser(t.app);
    expect((await login(user.email, idp.bareIssuer)).status).toBe(200);
    expect((await linkOf(user.id)).issuer).toBe(idp.issuer);
    expect((await login(user.email, idp.issuer)).body.user.id).toBe(user.id);
  });

  it('finds an account linked under another spelling before this fix, and moves it', async () => {
    const user = await createUser(t.app);
    await users.update(
      { id: user.id },
      { idpIssuer: idp.bareIssuer, idpSubject: subjectFor(user.email) },
    );
    const res = await login(user.email, idp.issuer);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect((await linkOf(user.id)).issuer).toBe(idp.issuer);
  });

  it('the migration moves existing links to the canonical spelling', async () => {
    const canonical = `https://${unique('idp')}.example`;
    const bare = canonical.replace('https://', '');
    const other = `https://${unique('other')}.example`;
    const link = async (issuer: string, subject: string) => {
      const u = await createUser(t.app);
      await users.update({ id: u.id }, { idpIssuer: issuer, idpSubject: subject });
      return u.id;
    };
    const moved = await link(bare, 'alice');
    const keptCanonical = await link(canonical, 'bob');
    const clash = await link(bare, 'bob'); // bob already has the canonical link
    const untouched = await link(other, 'carol');

    const runner = t.app.get(DataSource).createQueryRunner();
    try {
      await new CanonicalIdpIssuer1795410000000([canonical, bare]).up(runner);
    } finally {
      await runner.release();
    }
    expect((await linkOf(moved)).issuer).toBe(canonical);
    expect((await linkOf(keptCanonical)).issuer).toBe(canonical);
    expect((await linkOf(clash)).issuer).toBe(bare);
    expect((await linkOf(untouched)).issuer).toBe(other);
  });
});

describe('the discovery document names another issuer', () => {
  /** /health tells its details only to a caller with METRICS_TOKEN. */
  const OPERATOR_TOKEN = 'operator-token-0123456789';
  async function signInHealth(t: TestApp): Promise<Required<HealthReport>> {
    // Discovery is read at boot without holding it: wait for its answer.
    for (let i = 0; i < 50; i++) {
      const res = await t
        .http()
        .get('/health')
        .set('Authorization', `Bearer ${OPERATOR_TOKEN}`)
        .expect(200);
      const body = res.body as Required<HealthReport>;
      if (body.details.sign_in.discovered_issuer !== undefined) return body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('discovery was never read');
  }

  it('warns at boot and in /health details, and /health stays ok', async () => {
    const idp = await sharedIdentityProvider();
    // A trailing slash is enough for the provider's `iss` to match no listed spelling.
    const { lines, options } = capturedLogs({
      ...idp.env(),
      OIDC_ISSUER: `${idp.issuer}/`,
      METRICS_TOKEN: OPERATOR_TOKEN,
    });
    // Lines outside a request go to the first app's logger of the worker unless reset.
    __resetOutOfContextForTests();
    const t = await createTestApp(options);
    try {
      const body = await signInHealth(t);
      expect(body.status).toBe('ok');
      expect(body.details.sign_in).toMatchObject({
        configured: true,
        discovered_issuer: idp.issuer,
        warnings: [expect.stringContaining('trailing slash')],
      });
      const warned = lines
        .map((l) => JSON.parse(l) as { level: number; context?: string; msg: string })
        .filter((l) => l.context === 'OidcDiscovery' && l.level === 40);
      expect(warned).toHaveLength(1);
      expect(warned[0].msg).toContain(`"${idp.issuer}"`);
    } finally {
      await t.close();
    }
  });

  it('says nothing when the issuer is listed', async () => {
    const idp = await sharedIdentityProvider();
    const t = await createTestApp({ env: { METRICS_TOKEN: OPERATOR_TOKEN } });
    try {
      const body = await signInHealth(t);
      expect(body.details.sign_in).toEqual({
        configured: true,
        discovered_issuer: idp.issuer,
        warnings: [],
      });
    } finally {
      await t.close();
    }
  });
});
