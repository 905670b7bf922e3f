import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CryptoKey, exportJWK, generateKeyPair, JWK, JWTPayload, SignJWT } from 'jose';

export const TEST_AUDIENCE = 'device-care-test-client';

interface KeyPair {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
}

export interface TokenOptions {
  claims?: JWTPayload & Record<string, unknown>;
  /** Sign with a key the provider does not publish (optionally reusing a published kid). */
  foreignKey?: boolean;
  kid?: string;
  alg?: 'RS256' | 'ES256';
  /** Seconds relative to now for iat and exp. */
  iatOffset?: number;
  expOffset?: number;
}

/**
 * A local OpenID provider for tests: discovery and a JWKS on 127.0.0.1, and ID tokens signed
 * with real RS256 and ES256 keys, so `jose` runs exactly as it does against Google.
 */
export class TestIdentityProvider {
  private server?: Server;
  private keys: KeyPair[] = [];
  private foreign: Partial<Record<'RS256' | 'ES256', CryptoKey>> = {};
  issuer = '';
  jwksRequests = 0;
  /** When false, the JWKS answers 503, as a provider outage would. */
  available = true;

  async start(): Promise<this> {
    for (const alg of ['RS256', 'ES256'] as const) {
      await this.rotate(alg);
      this.foreign[alg] = (await generateKeyPair(alg)).privateKey;
    }
    this.server = createServer((req, res) => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', Connection: 'close' });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/.well-known/openid-configuration') {
        return send(200, { issuer: this.issuer, jwks_uri: `${this.issuer}/jwks` });
      }
      if (req.url === '/jwks') {
        this.jwksRequests++;
        if (!this.available) return send(503, { error: 'unavailable' });
        return send(200, { keys: this.keys.map((k) => k.jwk) });
      }
      send(404, {});
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.server.unref(); // a shared provider must not keep the Jest worker alive
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Publishes a new signing key for `alg` and signs with it from now on, as a provider rotating
   * its keys does; the older keys stay published. Returns the new key's kid.
   */
  async rotate(alg: 'RS256' | 'ES256' = 'RS256'): Promise<string> {
    const pair = await generateKeyPair(alg, { extractable: true });
    const kid = `test-${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
    this.keys.push({ kid, alg, privateKey: pair.privateKey, jwk });
    return kid;
  }

  /** The issuer without its scheme, as Google's `accounts.google.com` spelling is. */
  get bareIssuer(): string {
    return this.issuer.replace(/^https?:\/\//, '');
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  /** The environment that points the app at this provider. */
  env(): Record<string, string> {
    return { OIDC_ISSUER: this.issuer, OIDC_AUDIENCE: TEST_AUDIENCE, OIDC_JWKS_URI: this.jwksUri };
  }

  /** A signed ID token; by default valid for an hour, for this issuer and audience. */
  async token(options: TokenOptions = {}): Promise<string> {
    const alg = options.alg ?? 'RS256';
    const own = this.keys.filter((k) => k.alg === alg).at(-1)!; // the newest
    const key = options.foreignKey ? this.foreign[alg]! : own.privateKey;
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      iss: this.issuer,
      aud: TEST_AUDIENCE,
      sub: randomUUID(),
      email_verified: true,
      iat: now + (options.iatOffset ?? 0),
      exp: now + (options.expOffset ?? 3600),
      ...options.claims,
    };
    return new SignJWT(payload)
      .setProtectedHeader({ alg, kid: options.kid ?? own.kid, typ: 'JWT' })
      .sign(key);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

let shared: Promise<TestIdentityProvider> | undefined;

/** One provider per test file (Jest module registry), started on first use. */
export function sharedIdentityProvider(): Promise<TestIdentityProvider> {
  shared ??= new TestIdentityProvider().start();
  return shared;
}
