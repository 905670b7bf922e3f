import { createHmac, createPublicKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { Session } from '../../src/auth/session/session.entity';
import { User } from '../../src/auth/user.entity';
import { Device } from '../../src/device/device.entity';
import { signIn, subjectFor } from '../support/auth';
import { deviceToken } from '../support/devices';
import { createDevice, createOrg, createUser } from '../support/factories';
import {
  sharedIdentityProvider,
  TEST_AUDIENCE,
  TestIdentityProvider,
} from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';
import { recordFigure } from './support/figures';
import { routes } from '../support/routes';
import { HIGH_LIMITS } from './support/rel';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const part = (token: string, i: number) =>
  JSON.parse(Buffer.from(token.split('.')[i], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;

/** An attacker's own JWKS on 127.0.0.1, for `jku` and `x5u` tricks. */
async function attackerJwks(
  jwk: object,
): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  return { url, server, hits: () => hits };
}

describe('identity attacks', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  beforeAll(async () => {
    idp = await sharedIdentityProvider();
    t = await createTestApp({ env: HIGH_LIMITS });
  });
  let closeEvil = () => {};
  afterAll(async () => {
    closeEvil();
    await t.close();
  });

  const sessions = () => t.app.get(DataSource).getRepository(Session).count();

  it('accepts none of the ID-token mutations and creates no session', async () => {
    const user = await createUser(t.app, { role: 'admin' });
    const claims = { email: user.email, sub: subjectFor(user.email) };
    const good = await idp.token({ claims });
    const header = part(good, 0);
    const payload = part(good, 1);
    const [h64, p64, s64] = good.split('.');
    const jwks = (await (await fetch(idp.jwksUri)).json()) as { keys: Record<string, string>[] };
    const rsa = jwks.keys.find((k) => k.kty === 'RSA')!;
    const publicPem = createPublicKey({ key: rsa, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    const hs256 = (
      key: string | Buffer,
      h: object = { alg: 'HS256', typ: 'JWT', kid: header.kid },
      p: object = payload,
    ) => {
      const input = `${b64(h)}.${b64(p)}`;
      return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    };
    const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const attackerJwk = {
      ...attacker.publicKey.export({ format: 'jwk' }),
      kid: 'attacker',
      alg: 'RS256',
      use: 'sig',
    };
    const evil = await attackerJwks(attackerJwk);
    closeEvil = () => evil.server.close();
    const signAttacker = (h: Record<string, unknown>, p: object = payload) =>
      new SignJWT(p as Record<string, unknown>)
        .setProtectedHeader({ alg: 'RS256', ...h })
        .sign(attacker.privateKey);
    /** Signed by hand, for headers jose refuses to produce. */
    const rawRs256 = (h: object, p: object = payload) => {
      const input = `${b64(h)}.${b64(p)}`;
      return `${input}.${sign('sha256', Buffer.from(input), attacker.privateKey).toString('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const mutations: [string, () => Promise<string> | string][] = [
      ['wrong audience', () => idp.token({ claims: { ...claims, aud: 'someone-else' } })],
      ['audience list without ours', () => idp.token({ claims: { ...claims, aud: ['a', 'b'] } })],
      ['audience prefix', () => idp.token({ claims: { ...claims, aud: `${TEST_AUDIENCE}-evil` } })],
      ['wrong issuer', () => idp.token({ claims: { ...claims, iss: 'https://evil.example' } })],
      [
        'issuer with a suffix',
        () => idp.token({ claims: { ...claims, iss: `${idp.issuer}.evil.example` } }),
      ],
      [
        'issuer with a trailing slash',
        () => idp.token({ claims: { ...claims, iss: `${idp.issuer}/` } }),
      ],
      ['expired', () => idp.token({ claims, iatOffset: -7200, expOffset: -3600 })],
      [
        'expired beyond the tolerance by 60 s',
        () => idp.token({ claims, iatOffset: -600, expOffset: -60 }),
      ],
      [
        'issued an hour in the future',
        () => idp.token({ claims, iatOffset: 3600, expOffset: 7200 }),
      ],
      [
        'not valid before an hour from now',
        () => idp.token({ claims: { ...claims, nbf: now + 3600 } }),
      ],
      [
        'no exp',
        () => hs256('x') && signAttacker({ kid: header.kid }, { ...payload, exp: undefined }),
      ],
      ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${p64}.`],
      [
        'alg NONE with the signature kept',
        () => `${b64({ alg: 'NONE', typ: 'JWT', kid: header.kid })}.${p64}.${s64}`,
      ],
      ['alg nOnE', () => `${b64({ alg: 'nOnE' })}.${p64}.`],
      ['HS256 with the public key (PEM)', () => hs256(publicPem)],
      ['HS256 with the public key (PEM, no final newline)', () => hs256(publicPem.trim())],
      ['HS256 with the public key (JWK JSON)', () => hs256(JSON.stringify(rsa))],
      ['HS256 with the modulus', () => hs256(Buffer.from(rsa.n, 'base64url'))],
      ['HS256 with an empty key', () => hs256('')],
      ['foreign key, published kid', () => idp.token({ claims, foreignKey: true })],
      [
        'foreign ES256 key, published kid',
        () => idp.token({ claims, alg: 'ES256', foreignKey: true }),
      ],
      [
        'foreign key, unknown kid',
        () => idp.token({ claims, foreignKey: true, kid: 'unknown-kid' }),
      ],
      ['foreign key, no kid', () => signAttacker({})],
      [
        'tampered payload (email)',
        () => `${h64}.${b64({ ...payload, email: 'someone@example.com' })}.${s64}`,
      ],
      ['tampered payload (sub)', () => `${h64}.${b64({ ...payload, sub: 'other' })}.${s64}`],
      [
        'tampered payload (exp extended)',
        () => `${h64}.${b64({ ...payload, exp: now + 86400 * 365 })}.${s64}`,
      ],
      ['signature stripped', () => `${h64}.${p64}.`],
      [
        'signature of another token',
        async () => `${h64}.${p64}.${(await idp.token()).split('.')[2]}`,
      ],
      ['jku to the attacker JWKS', () => signAttacker({ kid: 'attacker', jku: evil.url })],
      [
        'jku to the attacker JWKS with a published kid',
        () => signAttacker({ kid: header.kid, jku: evil.url }),
      ],
      ['x5u to the attacker', () => signAttacker({ kid: 'attacker', x5u: evil.url })],
      ['embedded jwk header', () => signAttacker({ kid: 'attacker', jwk: attackerJwk })],
      [
        'kid path traversal, HS256 empty key',
        () => hs256('', { alg: 'HS256', kid: '../../../../dev/null' }),
      ],
      ['kid SQL injection', () => hs256('x', { alg: 'HS256', kid: "' UNION SELECT 'x' --" })],
      ['kid as an object', () => signAttacker({ kid: { $ne: '' } })],
      ['unknown critical header', () => rawRs256({ alg: 'RS256', kid: 'attacker', crit: ['exp'] })],
      ['PS256 algorithm', () => `${b64({ ...header, alg: 'PS256' })}.${p64}.${s64}`],
      ['two-part token', () => `${h64}.${p64}`],
      ['four-part token', () => `${good}.x`],
      ['JWE-shaped', () => `${b64({ alg: 'dir', enc: 'A256GCM' })}..aaaa.bbbb.cccc`],
    ];
    const before = await sessions();
    const outcomes: Record<string, number> = {};
    let accepted = 0;
    const acceptedNames: string[] = [];
    const published = new Set(jwks.keys.map((k) => k.kid));
    const kidPublished = (token: string) => {
      try {
        return published.has(part(token, 0).kid as string);
      } catch {
        return false;
      }
    };
    // A kid the provider does not publish may be a key it has just added: inside the refetch
    // cooldown that is 503 with Retry-After (docs/sign-in.md), never a session.
    const wrongAnswers: string[] = [];
    for (const [name, make] of mutations) {
      const token = await make();
      const res = await t.http().post('/api/auth/login').send({ id_token: token });
      outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
      if (res.status < 300 || res.headers['set-cookie']) {
        accepted++;
        acceptedNames.push(`${name}: ${res.status}`);
      }
      const unknownKidWait =
        res.status === 503 && !kidPublished(token) && Number(res.headers['retry-after']) > 0;
      if (res.status !== 401 && !unknownKidWait) wrongAnswers.push(`${name}: ${res.status}`);
    }
    const created = (await sessions()) - before;
    // The control: the unmutated token does sign in, so the matrix tested something.
    await t.http().post('/api/auth/login').send({ id_token: good }).expect(200);
    recordFigure('Identity', 'ID-token mutations tried', mutations.length, '>= 30');
    recordFigure('Identity', 'mutations accepted', accepted, '0');
    recordFigure('Identity', 'sessions created by mutations', created, '0');
    recordFigure(
      'Identity',
      'mutation answers',
      Object.entries(outcomes)
        .map(([s, n]) => `${s}:${n}`)
        .join(' '),
      'all 401 (503 for an unpublished kid in the cooldown)',
    );
    recordFigure('Identity', 'attacker JWKS fetched (jku/x5u)', evil.hits(), '0');
    expect(acceptedNames).toEqual([]);
    expect(created).toBe(0);
    expect(wrongAnswers).toEqual([]);
    expect(evil.hits()).toBe(0);
  });

  it('lets no credential but the right session through any /api/v1 route', async () => {
    const orgA = await createOrg(t.app);
    const adminA = await signIn(t, { orgId: orgA.id, role: 'admin' });
    const memberA = await createUser(t.app, { orgId: orgA.id, role: 'member' });
    const deviceA = await createDevice(t.app, orgA.id);
    const orgB = await createOrg(t.app);
    const adminB = await signIn(t, { orgId: orgB.id, role: 'admin' });
    const name = t.config.session.cookieName;
    const ds = t.app.get(DataSource);

    const expired = await signIn(t, { orgId: orgA.id, role: 'admin' });
    await ds
      .getRepository(Session)
      .update({ userId: expired.user.id }, { expiresAt: new Date(Date.now() - 1000) });
    const idle = await signIn(t, { orgId: orgA.id, role: 'admin' });
    await ds
      .getRepository(Session)
      .update({ userId: idle.user.id }, { idleExpiresAt: new Date(Date.now() - 1000) });
    const revoked = await signIn(t, { orgId: orgA.id, role: 'admin' });
    await t.http().post('/api/auth/logout').set('Cookie', revoked.cookie).expect(204);
    const disabled = await signIn(t, { orgId: orgA.id, role: 'admin' });
    await ds.getRepository(User).update({ id: disabled.user.id }, { disabled: true });
    const bearer = await deviceToken(t, deviceA);

    const denied: [string, Record<string, string>][] = [
      ['no cookie', {}],
      ['garbage cookie', { Cookie: `${name}=garbage` }],
      [
        'random 256-bit cookie',
        { Cookie: `${name}=${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}` },
      ],
      ['expired session', { Cookie: expired.cookie }],
      ['idle-expired session', { Cookie: idle.cookie }],
      ['revoked session', { Cookie: revoked.cookie }],
      ['disabled account', { Cookie: disabled.cookie }],
      ['device token as bearer', { Authorization: `Bearer ${bearer}` }],
      ['device token as the cookie', { Cookie: `${name}=${bearer}` }],
      ['admin session id as bearer', { Authorization: `Bearer ${adminA.cookie.split('=')[1]}` }],
    ];
    const v1 = routes(t).filter(([, p]) => p.startsWith('/api/v1/'));
    expect(v1.length).toBeGreaterThanOrEqual(7);
    const fill = (p: string) =>
      p.replace(':device_id', deviceA.deviceId).replace(/:[A-Za-z_]+/g, memberA.id);
    const bodyFor = (method: string, path: string) =>
      method === 'PATCH'
        ? { role: 'admin', disabled: true }
        : path.includes('users')
          ? { email: `${randomUUID()}@example.com`, role: 'admin' }
          : { device_id: `d-${randomUUID()}`, model: 'hub-2', provider: 'acme' };
    const secretsOfA = [orgA.id, memberA.id, memberA.email, deviceA.deviceId, adminA.user.email];
    const snapshotA = async () =>
      JSON.stringify({
        users: await ds
          .getRepository(User)
          .find({ where: { orgId: orgA.id }, order: { id: 'ASC' } }),
        devices: await ds
          .getRepository(Device)
          .find({ where: { orgId: orgA.id }, order: { deviceId: 'ASC' } }),
      });
    const before = await snapshotA();
    let attempts = 0;
    const leaks: string[] = [];
    for (const [method, path] of v1) {
      const url = fill(path);
      for (const [label, headers] of [
        ...denied,
        ['other org admin session', { Cookie: adminB.cookie }] as const,
      ]) {
        let req = t.http()[method.toLowerCase() as 'get'](url).set(headers);
        const res =
          method === 'GET' || method === 'DELETE'
            ? await req
            : await (req = req.send(bodyFor(method, path)));
        attempts++;
        const exposes = secretsOfA.some((s) => res.text.includes(s));
        const otherOrg = label === 'other org admin session';
        // Another org's admin may use routes on its own org; it must never see or touch org A.
        const wrong = otherOrg
          ? exposes || (path.includes('/:') && res.status < 300)
          : res.status !== 401;
        if (wrong) leaks.push(`${label}: ${method} ${path} -> ${res.status}`);
      }
    }
    const changed = (await snapshotA()) !== before;
    // The control: org A's admin does reach org A's data.
    const list = await t.http().get('/api/v1/devices').set('Cookie', adminA.cookie).expect(200);
    expect(list.text).toContain(deviceA.deviceId);
    recordFigure(
      'Identity',
      '/api/v1 routes x credentials tried',
      `${v1.length} x ${denied.length + 1} = ${attempts}`,
      'every route',
    );
    recordFigure(
      'Identity',
      'leaks (non-401 for a bad credential; org A data seen or changed by org B)',
      leaks.length + (changed ? 1 : 0),
      '0',
    );
    expect(leaks).toEqual([]);
    expect(changed).toBe(false);
  });
});
