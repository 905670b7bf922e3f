import { createSecretKey, KeyObject, randomBytes } from 'node:crypto';
import { LogLevel, NodeEnv, validateEnv, ValidatedEnv } from './env.validation';
import { splitList } from './parse';
import { TrustProxy } from './trust-proxy';
import { parseUuid } from './uuid';

export interface SubscriptionsConfig {
  /** Users of this organization read subscriptions (the operators' API). */
  fulfilmentOrgId?: string;
  /** 0: the periodic reconcile pass is off. */
  reconcileIntervalSeconds: number;
  reconcilePendingAfterSeconds: number;
}

export interface OutgoingWebhooksConfig {
  timeoutMs: number;
  /** The waits before the 2nd, 3rd, ... attempt, in milliseconds (before jitter). */
  retryScheduleMs: number[];
  disableAfterDays: number;
  /** http URLs and private, loopback, link-local... addresses allowed. */
  allowPrivate: boolean;
}

export interface StripeConfig {
  secretKey?: string;
  leasePriceId?: string;
  monthlyPriceId?: string;
  webhookSecrets: string[];
  /** Host, port and protocol of a non-default API (a local fake in tests). */
  apiBase?: URL;
  timeoutMs: number;
  maxNetworkRetries: number;
}

/** The Node HTTP server's limits on slow clients, in milliseconds. */
export interface HttpServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

export interface DataEncryptionConfig {
  /** DATA_ENCRYPTION_KEY; unset outside production, a key is made once per data store. */
  key?: Buffer;
  /** DATA_ENCRYPTION_PREVIOUS_KEYS: may unwrap, never wrap. */
  previousKeys: Buffer[];
}

export interface RateLimitConfig {
  checkoutPerMinute: number;
  loginPerMinute: number;
  deviceAuthPerMinute: number;
}

export interface OidcConfig {
  /** Spellings of one issuer; the first is the canonical form stored on accounts. */
  issuers: string[];
  /** OIDC_AUDIENCE, then the console's client id when it is not among them. */
  audiences: string[];
  /** CONSOLE_OIDC_CLIENT_ID: the operators' console signs in as this client (contract section 11). */
  consoleClientId?: string;
  jwksUri?: string;
  /** The first spelling that is a URL: where `/.well-known/openid-configuration` is read. */
  discoveryBase?: string;
  /** That spelling as written: the console's sign-in authority, and its CSP's connect-src. */
  consoleIssuer?: string;
  jwksCooldownMs: number;
}

/**
 * The service's typed configuration. Built once from validated variables; every other part of the
 * code asks this object, so tests build their own instance instead of touching process.env.
 */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  readonly nodeEnv: NodeEnv;
  readonly databaseUrl?: string;
  readonly databasePoolSize: number;
  readonly pgliteDataDir: string;
  readonly baseUrl: string;
  readonly siteUrl: string;
  readonly corsOrigins: string[];
  /** Express `trust proxy` value: false, a hop count, or a subnet list. */
  readonly trustProxy: TrustProxy;
  readonly httpTimeouts: HttpServerTimeouts;
  readonly session: {
    cookieName: string;
    absoluteTtlSeconds: number;
    idleTtlSeconds: number;
    secureCookie: boolean;
  };
  readonly oidc: OidcConfig;
  readonly deviceToken: {
    /** Signs: jsonwebtoken takes a key object as is (no key built per call). */
    secret: KeyObject;
    /** The same secret as text, the form passport-jwt documents for checking tokens. */
    secretText: string;
    ttlSeconds: number;
    secretWasGenerated: boolean;
    /** DEVICE_REQUIRE_PROOF: a device without a registered key gets no token. */
    requireProof: boolean;
  };
  /** Contract section 10: when a device counts as offline, how often the pass looks, low battery. */
  readonly deviceLiveness: {
    offlineAfterSeconds: number;
    intervalSeconds: number;
    batteryLowPct: number;
  };
  readonly stripe: StripeConfig;
  readonly leaseCents: number;
  readonly monthlyCents: number;
  readonly subscriptions: SubscriptionsConfig;
  /** 0: the periodic housekeeping pass (retention) is off. */
  readonly housekeepingIntervalSeconds: number;
  /** Audit events older than this are pruned by the housekeeping pass; 0: kept forever. */
  readonly auditRetentionDays: number;
  /** How often the audit chain's head is logged as an `audit checkpoint` line; 0: never. */
  readonly auditCheckpointIntervalSeconds: number;
  readonly support: { phone: string; email: string };
  readonly bootstrap: { orgName?: string; adminEmail?: string };
  readonly redisUrl?: string;
  readonly redisKeyPrefix: string;
  readonly rateLimits: RateLimitConfig;
  readonly outgoingWebhooks: OutgoingWebhooksConfig;
  /** The master keys (docs/privacy.md); DataKeyring resolves the one in use at boot. */
  readonly dataEncryption: DataEncryptionConfig;
  /** 0: ended records keep their personal data until erased by hand. */
  readonly personalDataRetentionDays: number;
  readonly metricsEnabled: boolean;
  readonly metricsToken?: string;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: LogLevel;
  readonly logPretty?: boolean;
  readonly version: string;

  constructor(env: ValidatedEnv, version = '0.0.0') {
    this.port = env.PORT;
    this.host = env.HOST;
    this.nodeEnv = env.NODE_ENV;
    this.databaseUrl = env.DATABASE_URL;
    this.databasePoolSize = env.DATABASE_POOL_SIZE;
    this.pgliteDataDir = env.PGLITE_DATA_DIR;
    this.baseUrl = env.BASE_URL.replace(/\/+$/, '');
    this.siteUrl = env.SITE_URL.replace(/\/+$/, '');
    const origins = env.CORS_ORIGINS ? splitList(env.CORS_ORIGINS) : [this.siteUrl, this.baseUrl];
    this.corsOrigins = [...new Set(origins.map((o) => new URL(o).origin))];
    this.trustProxy = env.trustProxy;
    this.httpTimeouts = {
      headersMs: env.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestMs: env.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    };
    this.session = {
      cookieName: env.SESSION_COOKIE_NAME,
      absoluteTtlSeconds: env.SESSION_ABSOLUTE_TTL_SECONDS,
      idleTtlSeconds: env.SESSION_IDLE_TTL_SECONDS,
      secureCookie: this.baseUrl.startsWith('https://'),
    };
    const issuers = splitList(env.OIDC_ISSUER);
    const urlIssuer = issuers.find((s) => /^https?:\/\//.test(s));
    this.oidc = {
      issuers,
      audiences: [
        ...new Set([
          ...splitList(env.OIDC_AUDIENCE),
          ...(env.CONSOLE_OIDC_CLIENT_ID ? [env.CONSOLE_OIDC_CLIENT_ID] : []),
        ]),
      ],
      consoleClientId: env.CONSOLE_OIDC_CLIENT_ID,
      jwksUri: env.OIDC_JWKS_URI,
      discoveryBase: urlIssuer?.replace(/\/+$/, ''),
      consoleIssuer: urlIssuer,
      jwksCooldownMs: env.OIDC_JWKS_COOLDOWN_SECONDS * 1000,
    };
    // Text either way (a generated one is 48 random bytes in base64url), so that the key object
    // and the text hold the same bytes.
    const secret = env.DEVICE_TOKEN_SECRET || randomBytes(48).toString('base64url');
    this.deviceToken = {
      secret: createSecretKey(Buffer.from(secret, 'utf8')),
      secretText: secret,
      ttlSeconds: env.DEVICE_TOKEN_TTL_SECONDS,
      secretWasGenerated: !env.DEVICE_TOKEN_SECRET,
      requireProof: env.DEVICE_REQUIRE_PROOF,
    };
    this.deviceLiveness = {
      offlineAfterSeconds: env.DEVICE_OFFLINE_AFTER_SECONDS,
      intervalSeconds: env.DEVICE_LIVENESS_INTERVAL_SECONDS,
      batteryLowPct: env.DEVICE_BATTERY_LOW_PCT,
    };
    this.stripe = {
      secretKey: env.STRIPE_SECRET_KEY,
      leasePriceId: env.STRIPE_LEASE_PRICE_ID,
      monthlyPriceId: env.STRIPE_MONTHLY_PRICE_ID,
      webhookSecrets: splitList(env.STRIPE_WEBHOOK_SECRET),
      apiBase: env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined,
      timeoutMs: env.STRIPE_TIMEOUT_MS,
      maxNetworkRetries: env.STRIPE_MAX_NETWORK_RETRIES,
    };
    this.leaseCents = env.LEASE_CENTS;
    this.monthlyCents = env.MONTHLY_CENTS;
    this.subscriptions = {
      fulfilmentOrgId: parseUuid(env.FULFILMENT_ORG_ID),
      reconcileIntervalSeconds: env.RECONCILE_INTERVAL_SECONDS,
      reconcilePendingAfterSeconds: env.RECONCILE_PENDING_AFTER_SECONDS,
    };
    this.housekeepingIntervalSeconds = env.HOUSEKEEPING_INTERVAL_SECONDS;
    this.auditRetentionDays = env.AUDIT_RETENTION_DAYS;
    this.auditCheckpointIntervalSeconds = env.AUDIT_CHECKPOINT_INTERVAL_SECONDS;
    this.support = { phone: env.SUPPORT_PHONE, email: env.SUPPORT_EMAIL };
    this.bootstrap = { orgName: env.BOOTSTRAP_ORG_NAME, adminEmail: env.BOOTSTRAP_ADMIN_EMAIL };
    this.redisUrl = env.REDIS_URL;
    this.redisKeyPrefix = env.REDIS_KEY_PREFIX;
    this.rateLimits = {
      checkoutPerMinute: env.RATE_LIMIT_CHECKOUT_PER_MINUTE,
      loginPerMinute: env.RATE_LIMIT_LOGIN_PER_MINUTE,
      deviceAuthPerMinute: env.RATE_LIMIT_DEVICE_AUTH_PER_MINUTE,
    };
    this.outgoingWebhooks = {
      timeoutMs: env.OUTGOING_WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryScheduleMs: splitList(env.OUTGOING_WEBHOOK_RETRY_SCHEDULE).map(durationMs),
      disableAfterDays: env.OUTGOING_WEBHOOK_DISABLE_AFTER_DAYS,
      allowPrivate: env.OUTGOING_WEBHOOK_ALLOW_PRIVATE ?? env.NODE_ENV !== 'production',
    };
    this.dataEncryption = {
      key: env.DATA_ENCRYPTION_KEY ? Buffer.from(env.DATA_ENCRYPTION_KEY, 'base64') : undefined,
      previousKeys: splitList(env.DATA_ENCRYPTION_PREVIOUS_KEYS ?? '').map((k) =>
        Buffer.from(k, 'base64'),
      ),
    };
    this.personalDataRetentionDays = env.PERSONAL_DATA_RETENTION_DAYS;
    this.metricsEnabled = env.METRICS_ENABLED;
    this.metricsToken = env.METRICS_TOKEN;
    this.shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    this.logLevel = env.LOG_LEVEL;
    this.logPretty = env.LOG_PRETTY;
    this.version = version;
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  get checkoutEnabled(): boolean {
    const s = this.stripe;
    return Boolean(s.secretKey && s.leasePriceId && s.monthlyPriceId);
  }

  /** Builds a config from raw variables; tests use this with their own overrides. */
  static fromEnv(raw: Record<string, unknown>, version?: string): AppConfig {
    return new AppConfig(validateEnv(raw), version);
  }
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s`, `30m`, `2h`, `1d` (validated by the variable's pattern). */
function durationMs(step: string): number {
  return Number(step.slice(0, -1)) * UNIT_MS[step.slice(-1)];
}
