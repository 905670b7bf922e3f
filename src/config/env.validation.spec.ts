import { AppConfig } from './app-config';
import { validateEnv } from './env.validation';

describe('validateEnv', () => {
  it('applies the contract defaults to an empty environment', () => {
    const env = validateEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.SESSION_COOKIE_NAME).toBe('service_session');
    expect(env.SESSION_ABSOLUTE_TTL_SECONDS).toBe(43200);
    expect(env.SESSION_IDLE_TTL_SECONDS).toBe(1800);
    expect(env.DEVICE_TOKEN_TTL_SECONDS).toBe(900);
    expect(env.LEASE_CENTS).toBe(24900);
    expect(env.MONTHLY_CENTS).toBe(5000);
    expect(env.DATABASE_URL).toBeUndefined();
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
    ['NODE_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['BASE_URL', 'not a url'],
    ['TRUST_PROXY', 'true'],
    ['DEVICE_TOKEN_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['BOOTSTRAP_ADMIN_EMAIL', 'not-an-email'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => validateEnv({ [name]: value })).toThrow(new RegExp(`${name}`));
  });

  it('requires DEVICE_TOKEN_SECRET in production', () => {
    expect(() => validateEnv({ NODE_ENV: 'production' })).toThrow(/DEVICE_TOKEN_SECRET/);
    expect(() =>
      validateEnv({ NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'x'.repeat(32) }),
    ).not.toThrow();
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
    expect(c.checkoutEnabled).toBe(false);
  });

  it('enables checkout only with a key and both price ids', () => {
    const base = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_LEASE_PRICE_ID: 'price_a' };
    expect(AppConfig.fromEnv(base).checkoutEnabled).toBe(false);
    expect(AppConfig.fromEnv({ ...base, STRIPE_MONTHLY_PRICE_ID: 'price_b' }).checkoutEnabled).toBe(
      true,
    );
  });

  it('splits comma-separated webhook secrets for rotation', () => {
    const c = AppConfig.fromEnv({ STRIPE_WEBHOOK_SECRET: 'whsec_a, whsec_b' });
    expect(c.stripe.webhookSecrets).toEqual(['whsec_a', 'whsec_b']);
  });
});
