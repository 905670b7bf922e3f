import { createHash, randomBytes } from 'node:crypto';

/**
 * The dashboard's side of a sign-in: the authorization code flow with PKCE (RFC 7636), a state and
 * a nonce, as a single-page app does it with a public client. Used by the dev provider's own
 * pages, by `npm run dev:idp -- token`, and by the end-to-end tests.
 */
export interface PublicClient {
  issuer: string;
  clientId: string;
  redirectUri: string;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  /** The PKCE secret: kept by the client, sent only with the code. */
  verifier: string;
}

interface Endpoints {
  authorization_endpoint: string;
  token_endpoint: string;
}

const random = () => randomBytes(32).toString('base64url');

export async function discover(issuer: string): Promise<Endpoints> {
  const res = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
  if (!res.ok) throw new Error(`discovery at ${issuer} answered ${res.status}`);
  return (await res.json()) as Endpoints;
}

export function authorizationRequest(endpoint: string, client: PublicClient): AuthorizationRequest {
  const verifier = random();
  const request = { state: random(), nonce: random(), verifier };
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid email profile',
    state: request.state,
    nonce: request.nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { ...request, url: `${endpoint}?${params.toString()}` };
}

/**
 * The redirect back to the client: checks `state` (and `iss`, RFC 9207), trades the code and the
 * PKCE verifier for tokens, and checks the ID token's nonce. Returns the ID token.
 */
export async function completeSignIn(
  client: PublicClient,
  request: AuthorizationRequest,
  redirectedTo: string,
  origin?: string,
): Promise<string> {
  const params = new URL(redirectedTo).searchParams;
  if (params.get('state') !== request.state) throw new Error('the state does not match');
  const error = params.get('error');
  if (error) throw new Error(`${error}: ${params.get('error_description') ?? ''}`);
  const iss = params.get('iss');
  if (iss !== null && iss !== client.issuer) throw new Error(`the redirect names issuer ${iss}`);
  const { token_endpoint } = await discover(client.issuer);
  const res = await fetch(token_endpoint, {
    method: 'POST',
    // A browser's fetch names the page's origin; the provider answers only the client's origins.
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin ? { Origin: origin } : {}),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      code_verifier: request.verifier,
    }),
  });
  const body = (await res.json()) as { id_token?: unknown; error?: string };
  if (!res.ok || typeof body.id_token !== 'string') {
    throw new Error(`the token endpoint answered ${res.status} ${body.error ?? ''}`);
  }
  const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1], 'base64url').toString()) as {
    nonce?: string;
  };
  if (claims.nonce !== request.nonce) throw new Error('the ID token nonce does not match');
  return body.id_token;
}

/** Cookies by name, as a browser would keep them for one site during the sign-in. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const gone = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A whole sign-in as a browser makes it: the authorization request, the provider's sign-in page
 * filled with `email` (verified unless told otherwise), redirects followed until the one back to
 * the client, the code exchanged (from `origin`, as a single-page app's fetch, when given).
 * Returns the ID token.
 */
export async function signInWithCodeFlow(
  client: PublicClient,
  email: string,
  options: { verified?: boolean; origin?: string } = {},
): Promise<string> {
  const request = authorizationRequest(
    (await discover(client.issuer)).authorization_endpoint,
    client,
  );
  const jar = new CookieJar();
  let url = request.url;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      body: form,
      redirect: 'manual',
      headers: { Cookie: jar.header() },
    });
    jar.store(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      const next = new URL(location, url).toString();
      if (next.startsWith(`${client.redirectUri}?`))
        return completeSignIn(client, request, next, options.origin);
      [url, form] = [next, undefined];
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || form || !action) {
      throw new Error(`sign-in stopped at ${res.status} ${url}: ${html.slice(0, 300)}`);
    }
    const fields: Record<string, string> = { email };
    if (options.verified !== false) fields.verified = 'on';
    [url, form] = [new URL(action, url).toString(), new URLSearchParams(fields)];
  }
  throw new Error('sign-in: too many redirects');
}
