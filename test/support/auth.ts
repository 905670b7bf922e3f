import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AuthUser, Role } from '../../src/common/auth/auth-user';
import { User } from '../../src/auth/user.entity';
import { apiClient } from './api-client';
import { createOrg, createUser, unique } from './factories';
import { sharedIdentityProvider } from './identity-provider';
import type { TestApp } from './test-app';

/** The provider's stable subject for an email in tests, so repeated sign-ins find the account. */
export const subjectFor = (email: string): string =>
  createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24);

/** `name=value` of the session cookie in a response's Set-Cookie, or undefined. */
export function sessionCookie(
  t: TestApp,
  setCookie: string[] | string | undefined,
): string | undefined {
  const name = t.config.session.cookieName;
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith(`${name}=`));
  const pair = line?.split(';')[0];
  return pair && pair !== `${name}=` ? pair : undefined;
}

/**
 * Creates (if needed) the org and account, and signs in through the real login endpoint with a
 * token from the test identity provider. `cookie` goes in a `Cookie` header as it is.
 */
export async function signIn(
  t: TestApp,
  opts: { orgId?: string; role?: Role; email?: string } = {},
): Promise<{ cookie: string; user: AuthUser }> {
  const email = (opts.email ?? `${unique('user')}@example.com`).toLowerCase();
  const existing = await t.app.get(DataSource).getRepository(User).findOneBy({ email });
  if (!existing) {
    const orgId = opts.orgId ?? (await createOrg(t.app)).id;
    await createUser(t.app, { orgId, email, role: opts.role ?? 'member' });
  }
  const idp = await sharedIdentityProvider();
  const idToken = await idp.token({ claims: { email, sub: subjectFor(email) } });
  const res = await apiClient(t)('post', '/api/auth/login', {
    body: { id_token: idToken },
    expect: 200,
  });
  const cookie = sessionCookie(t, res.headers['set-cookie']);
  if (!cookie) throw new Error('signIn: login set no session cookie');
  const u = res.body.user;
  return {
    cookie,
    user: { id: u.id, email: u.email, name: u.name, orgId: u.org_id, role: u.role },
  };
}
