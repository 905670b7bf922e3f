import { AppConfig } from './app-config';
import { ConfigError, validateEnv } from './env.validation';

describe('validateEnv', () => {
  it('applies the contract defaults to an empty environment', () => {
    const env = validateEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.SESSION_COOKIE_NAME).toBe('service_session');
    expect(env.SESSION_ABSOLUTE_TTL_SECONDS).toBe(43200);
    expect(env.SESSION_IDLE_TTL_SECONDS).toBe(1800);
    expect(env.DEVICE_TOKEN_TTL_SECONDS).toBe(900);
    expect(env.DEVICE_REQUIRE_PROOF).toBe(false);
    expect(env.LEASE_CENTS).toBe(24900);
    expect(env.MONTHLY_CENTS).toBe(5000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.FULFILMENT_ORG_ID).toBeUndefined();
    expect(env.RECONCILE_INTERVAL_SECONDS).toBe(900);
    expect(env.RECONCILE_PENDING_AFTER_SECONDS).toBe(3600);
    expect(env.HOUSEKEEPING_INTERVAL_SECONDS).toBe(3600);
  });

  it('converts numbers and treats empty strings as unset', () => {
    const env = validateEnv({ PORT: '8080', DATABASE_URL: '', REDIS_URL: ' ' });
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['FULFILMENT_ORG_ID', 'acme'],
    ['RECONCILE_INTERVAL_SECONDS', '-1'],
    ['RECONCILE_PENDING_AFTER_SECONDS', '10'],
    ['HOUSEKEEPING_INTERVAL_SECONDS', '-1'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['BASE_URL', 'not a url'],
    ['TRUST_PROXY', 'true'],
    ['DEVICE_TOKEN_SECRET', 'short'],
    ['DEVICE_REQUIRE_PROOF', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['BOOTSTRAP_ADMIN_EMAIL', 'not-an-email'],
    ['HTTP_REQUEST_TIMEOUT_SECONDS', '0'],
    ['HTTP_HEADERS_TIMEOUT_SECONDS', '31'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => validateEnv({ [name]: value })).toThrow(new RegExp(`${name}`));
  });

  it.each([
    [{ OIDC_ISSUER: 'https://idp.example' }, /OIDC_AUDIENCE: must be set/],
    [{ OIDC_AUDIENCE: 'client' }, /OIDC_ISSUER: must be set/],
    [{ OIDC_JWKS_URI: 'https://idp.example/jwks' }, /OIDC_ISSUER: must be set/],
    [{ OIDC_ISSUER: 'accounts.google.com', OIDC_AUDIENCE: 'c' }, /OIDC_ISSUER: one spelling/],
    [{ OIDC_ISSUER: 'https://a.example,not an issuer', OIDC_AUDIENCE: 'c' }, /not an issuer/],
    [{ OIDC_JWKS_COOLDOWN_SECONDS: '0' }, /OIDC_JWKS_COOLDOWN_SECONDS/],
    [{ CONSOLE_OIDC_CLIENT_ID: 'console' }, /OIDC_ISSUER: must be set/],
    [{ OIDC_ISSUER: 'https://a.example', CONSOLE_OIDC_CLIENT_ID: 'a,b' }, /CONSOLE_OIDC_CLIENT_ID/],
  ])('refuses sign-in configured halfway: %j', (env, message) => {
    expect(() => validateEnv(env)).toThrow(message);
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk' }, ['STRIPE_LEASE_PRICE_ID', 'STRIPE_MONTHLY_PRICE_ID']],
    [{ STRIPE_LEASE_PRICE_ID: 'p' }, ['STRIPE_SECRET_KEY', 'STRIPE_MONTHLY_PRICE_ID']],
    [{ BOOTSTRAP_ORG_NAME: 'Acme' }, ['BOOTSTRAP_ADMIN_EMAIL']],
    [{ METRICS_TOKEN: 'short' }, ['METRICS_TOKEN']],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '0' }, ['SHUTDOWN_TIMEOUT_SECONDS']],
  ])('refuses %j, naming exactly the settings at fault', (env, settings) => {
    let thrown: unknown;
    try {
      validateEnv(env);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).settings).toEqual(settings);
  });

  it('takes checkout configured whole', () => {
    const whole = {
      STRIPE_SECRET_KEY: 'sk',
      STRIPE_LEASE_PRICE_ID: 'a',
      STRIPE_MONTHLY_PRICE_ID: 'b',
    };
    expect(() => validateEnv(whole)).not.toThrow();
  });

  it('requires DEVICE_TOKEN_SECRET in production', () => {
    expect(() => validateEnv({ NODE_ENV: 'production' })).toThrow(/DEVICE_TOKEN_SECRET/);
    expect(() =>
      validateEnv({
        NODE_ENV: 'production',
        DEVICE_TOKEN_SECRET: 'x'.repeat(32),
        DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      }),
    ).not.toThrow();
  });

  it('requires a 32-byte DATA_ENCRYPTION_KEY in production, and knows no fixed key elsewhere', () => {
    const prod = { NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'x'.repeat(32) };
    expect(() => validateEnv(prod)).toThrow(/DATA_ENCRYPTION_KEY: must be set/);
    expect(() =>
      validateEnv({ ...prod, DATA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }),
    ).toThrow(/DATA_ENCRYPTION_KEY must be 32 bytes/);
    const key = Buffer.alloc(32, 9);
    const config = AppConfig.fromEnv({ ...prod, DATA_ENCRYPTION_KEY: key.toString('base64') });
    expect(config.dataEncryption).toEqual({ key, previousKeys: [] });
    expect(config.outgoingWebhooks.allowPrivate).toBe(false);
    // No fixed key is known anywhere: one would open whatever was written under it.
    for (const NODE_ENV of ['development', 'test']) {
      expect(AppConfig.fromEnv({ NODE_ENV }).dataEncryption).toEqual({ previousKeys: [] });
    }
    expect(AppConfig.fromEnv({}).outgoingWebhooks.allowPrivate).toBe(true);
  });

  it('reads the outgoing webhook retry schedule and refuses a malformed one', () => {
    const config = AppConfig.fromEnv({ OUTGOING_WEBHOOK_RETRY_SCHEDULE: '5s, 2m,1h,1d' });
    expect(config.outgoingWebhooks.retryScheduleMs).toEqual([
      5_000, 120_000, 3_600_000, 86_400_000,
    ]);
    expect(AppConfig.fromEnv({}).outgoingWebhooks.retryScheduleMs).toHaveLength(7);
    expect(() => validateEnv({ OUTGOING_WEBHOOK_RETRY_SCHEDULE: '5x' })).toThrow(
      /OUTGOING_WEBHOOK_RETRY_SCHEDULE/,
    );
  });
});

describe('AppConfig', () => {
  it('derives the cookie flag, CORS list and trust proxy value', () => {
    const c = AppConfig.fromEnv({
      BASE_URL: 'https://app.example.com/',
      SITE_URL: 'https://www.example.com',
      TRUST_PROXY: '1',
    });
    expect(c.session.secureCookie).toBe(true);
    expect(c.baseUrl).toBe('https://app.example.com');
    expect(c.corsOrigins).toEqual(['https://www.example.com', 'https://app.example.com']);
    expect(c.trustProxy).toBe(1);
    expect(c.httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    expect(c.checkoutEnabled).toBe(false);
  });

  it('enables checkout with a key and both price ids (part of them stops the boot)', () => {
    const base = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_LEASE_PRICE_ID: 'price_a' };
    expect(AppConfig.fromEnv({}).checkoutEnabled).toBe(false);
    expect(() => AppConfig.fromEnv(base)).toThrow(/STRIPE_MONTHLY_PRICE_ID: must be set/);
    expect(AppConfig.fromEnv({ ...base, STRIPE_MONTHLY_PRICE_ID: 'price_b' }).checkoutEnabled).toBe(
      true,
    );
  });

  it('reads issuer spellings, the first one canonical, and where to discover them', () => {
    const c = AppConfig.fromEnv({
      OIDC_ISSUER: 'accounts.google.com, https://accounts.google.com/',
      OIDC_AUDIENCE: 'web-client, android-client',
    });
    expect(c.oidc.issuers).toEqual(['accounts.google.com', 'https://accounts.google.com/']);
    expect(c.oidc.audiences).toEqual(['web-client', 'android-client']);
    expect(c.oidc.discoveryBase).toBe('https://accounts.google.com');
    // The console signs in at, and its CSP connects to, the spelling that is a URL.
    expect(c.oidc.consoleIssuer).toBe('https://accounts.google.com/');
    expect(c.oidc.jwksCooldownMs).toBe(30_000);
  });

  it("accepts the console's client id as an audience too, once", () => {
    const c = AppConfig.fromEnv({
      OIDC_ISSUER: 'https://idp.example',
      OIDC_AUDIENCE: 'web-client, console',
      CONSOLE_OIDC_CLIENT_ID: 'console',
    });
    expect(c.oidc.audiences).toEqual(['web-client', 'console']);
    expect(c.oidc.consoleClientId).toBe('console');
    const alone = AppConfig.fromEnv({
      OIDC_ISSUER: 'https://idp.example',
      CONSOLE_OIDC_CLIENT_ID: 'console',
    });
    expect(alone.oidc.audiences).toEqual(['console']);
    expect(AppConfig.fromEnv({}).oidc.consoleClientId).toBeUndefined();
  });

  it('splits comma-separated webhook secrets for rotation', () => {
    const c = AppConfig.fromEnv({ STRIPE_WEBHOOK_SECRET: 'whsec_a, whsec_b' });
    expect(c.stripe.webhookSecrets).toEqual(['whsec_a', 'whsec_b']);
  });

  it('reads the subscription settings; an interval of 0 turns the reconcile pass off', () => {
    const c = AppConfig.fromEnv({
      FULFILMENT_ORG_ID: '7A0E3F8E-0000-4000-8000-000000000001',
      RECONCILE_INTERVAL_SECONDS: '0',
    });
    expect(c.subscriptions).toEqual({
      fulfilmentOrgId: '7a0e3f8e-0000-4000-8000-000000000001',
      reconcileIntervalSeconds: 0,
      reconcilePendingAfterSeconds: 3600,
    });
  });
});
