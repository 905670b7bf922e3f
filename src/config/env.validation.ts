import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';
import { DEVICE_OFFLINE_AFTER_MAX, DEVICE_OFFLINE_AFTER_MIN } from './device-offline-after';
import { parseBool, splitList } from './parse';
import { parseTrustProxy, TrustProxy } from './trust-proxy';

const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const DB_URL_OPTIONS = {
  require_tld: false,
  require_protocol: true,
  protocols: ['postgres', 'postgresql'],
};
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toBool = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? (parseBool(value) ?? value) : value;
/** An empty string in .env means "unset", as it does for most twelve-factor tools. */
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * Every environment variable the service reads (docs/configuration.md), with its default.
 * Validated once per process (loadAppConfig); nothing outside config/load-env.ts reads process.env.
 */
export class EnvironmentVariables {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '127.0.0.1';
  @IsIn(NODE_ENVS) NODE_ENV: NodeEnv = 'development';

  @Transform(emptyToUndefined) @IsOptional() @IsUrl(DB_URL_OPTIONS) DATABASE_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) @Max(100) DATABASE_POOL_SIZE = 10;
  @IsString() @MinLength(1) PGLITE_DATA_DIR = '.data/pglite';

  @IsUrl(URL_OPTIONS) BASE_URL = 'http://localhost:3000';
  @IsUrl(URL_OPTIONS) SITE_URL = 'http://localhost:3000';
  @Transform(emptyToUndefined) @IsOptional() @IsString() CORS_ORIGINS?: string;
  /** Express's `trust proxy`, checked by parseTrustProxy: never `true` nor a range wider than /8 or /32. */
  @IsString() TRUST_PROXY = 'false';
  /**
   * Slow clients: a request must send its headers within the first, and all of itself within the
   * second; an idle kept-alive connection closes after the third. Seconds, checked every second.
   */
  @Transform(toInt) @IsInt() @Min(1) @Max(300) HTTP_HEADERS_TIMEOUT_SECONDS = 10;
  @Transform(toInt) @IsInt() @Min(1) @Max(600) HTTP_REQUEST_TIMEOUT_SECONDS = 30;
  @Transform(toInt) @IsInt() @Min(1) @Max(600) HTTP_KEEP_ALIVE_TIMEOUT_SECONDS = 5;

  @Matches(/^[A-Za-z0-9_-]+$/) SESSION_COOKIE_NAME = 'service_session';
  @Transform(toInt) @IsInt() @Min(60) SESSION_ABSOLUTE_TTL_SECONDS = 43200;
  @Transform(toInt) @IsInt() @Min(60) SESSION_IDLE_TTL_SECONDS = 1800;

  @Transform(emptyToUndefined) @IsOptional() @IsString() OIDC_ISSUER?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() OIDC_AUDIENCE?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsUrl(URL_OPTIONS) OIDC_JWKS_URI?: string;
  /**
   * After a key-set fetch, an unknown `kid` waits this long before the next one (jose's
   * `cooldownDuration`); inside it a sign-in answers 503 with Retry-After, never 401.
   */
  @Transform(toInt) @IsInt() @Min(1) @Max(600) OIDC_JWKS_COOLDOWN_SECONDS = 30;
  /**
   * The operators' console's client id at the first OIDC_ISSUER (contract section 11); also an
   * accepted audience. Unset: the console says sign-in is not configured.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[^\s,]{1,255}$/, {
    message: 'CONSOLE_OIDC_CLIENT_ID must be one client id (no spaces or commas)',
  })
  CONSOLE_OIDC_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(32, { message: 'DEVICE_TOKEN_SECRET must be at least 32 bytes' })
  DEVICE_TOKEN_SECRET?: string;
  @Transform(toInt) @IsInt() @Min(30) @Max(86400) DEVICE_TOKEN_TTL_SECONDS = 900;
  /** Every device must sign an assertion with its registered key; devices without one are refused. */
  @Transform(toBool) @IsBoolean() DEVICE_REQUIRE_PROOF = false;
  /** A device is offline once its last heartbeat or token is older than this (an org may override). */
  @Transform(toInt)
  @IsInt()
  @Min(DEVICE_OFFLINE_AFTER_MIN)
  @Max(DEVICE_OFFLINE_AFTER_MAX)
  DEVICE_OFFLINE_AFTER_SECONDS = 900;
  /** How often the liveness pass looks for devices gone quiet (one instance at a time). */
  @Transform(toInt) @IsInt() @Min(1) @Max(86400) DEVICE_LIVENESS_INTERVAL_SECONDS = 30;
  /** A heartbeat's battery under this sends `device.battery_low` (again only after 10 points above). */
  @Transform(toInt) @IsInt() @Min(1) @Max(90) DEVICE_BATTERY_LOW_PCT = 20;

  @Transform(emptyToUndefined) @IsOptional() @IsString() STRIPE_SECRET_KEY?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() STRIPE_LEASE_PRICE_ID?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() STRIPE_MONTHLY_PRICE_ID?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() STRIPE_WEBHOOK_SECRET?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsUrl(URL_OPTIONS) STRIPE_API_BASE?: string;
  /** Per attempt; a processor that never answers costs (retries + 1) times this, plus backoff. */
  @Transform(toInt) @IsInt() @Min(100) @Max(60000) STRIPE_TIMEOUT_MS = 10000;
  @Transform(toInt) @IsInt() @Min(0) @Max(5) STRIPE_MAX_NETWORK_RETRIES = 2;
  @Transform(toInt) @IsInt() @Min(0) LEASE_CENTS = 24900;
  @Transform(toInt) @IsInt() @Min(0) MONTHLY_CENTS = 5000;

  /** Shown on the plans page's contact card, the fallback when checkout is off or failing. */
  @IsString() @MinLength(3) SUPPORT_PHONE = '1-800-555-0199';
  @IsString() @MinLength(3) SUPPORT_EMAIL = 'care@example.com';

  @Transform(emptyToUndefined) @IsOptional() @IsString() BOOTSTRAP_ORG_NAME?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsEmail() BOOTSTRAP_ADMIN_EMAIL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['redis', 'rediss'] })
  REDIS_URL?: string;
  /** Namespaces rate-limit counters, so several deployments (or test runs) can share one Redis. */
  @Matches(/^[A-Za-z0-9:_-]{0,64}$/) REDIS_KEY_PREFIX = 'dc:';
  /** Per-minute allowances; raised only by benchmarks, never in production. */
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_CHECKOUT_PER_MINUTE = 10;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_LOGIN_PER_MINUTE = 20;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_DEVICE_AUTH_PER_MINUTE = 30;

  /** The organization whose users read subscriptions; unset, no one does. */
  @Transform(emptyToUndefined) @IsOptional() @IsUUID() FULFILMENT_ORG_ID?: string;
  /** How often an instance asks the processor about pending subscriptions; 0 turns it off. */
  @Transform(toInt) @IsInt() @Min(0) @Max(86400) RECONCILE_INTERVAL_SECONDS = 900;
  /** A pending record older than this is reconciled. */
  @Transform(toInt) @IsInt() @Min(60) @Max(2592000) RECONCILE_PENDING_AFTER_SECONDS = 3600;
  /** How often an instance deletes rows past their retention; 0 turns it off. */
  @Transform(toInt) @IsInt() @Min(0) @Max(86400) HOUSEKEEPING_INTERVAL_SECONDS = 3600;
  /** Audit events older than this many days are pruned (oldest first); 0 keeps them forever. */
  @Transform(toInt) @IsInt() @Min(0) @Max(36500) AUDIT_RETENTION_DAYS = 2190;
  /** How often an instance logs the audit chain's head as a checkpoint; 0 turns it off. */
  @Transform(toInt) @IsInt() @Min(0) @Max(86400) AUDIT_CHECKPOINT_INTERVAL_SECONDS = 3600;

  /** 32 bytes, base64: encrypts secrets at rest (webhook endpoints); required in production. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'DATA_ENCRYPTION_KEY must be 32 bytes in base64' })
  DATA_ENCRYPTION_KEY?: string;
  /** Older keys that may still unwrap data keys, comma-separated, until `data:rekey` has run. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$/, {
    message: 'DATA_ENCRYPTION_PREVIOUS_KEYS must be comma-separated keys of 32 bytes in base64',
  })
  DATA_ENCRYPTION_PREVIOUS_KEYS?: string;
  /** Personal data of ended or abandoned subscriptions is erased this long after; 0: never. */
  @Transform(toInt) @IsInt() @Min(0) @Max(36500) PERSONAL_DATA_RETENTION_DAYS = 365;
  /** An outgoing webhook attempt that has no 2xx answer within this long has failed. */
  @Transform(toInt) @IsInt() @Min(1) @Max(120) OUTGOING_WEBHOOK_TIMEOUT_SECONDS = 15;
  /** The waits before the 2nd, 3rd, ... attempt (`30s`, `5m`, `2h`, `1d`), each ±10 %. */
  @Matches(/^\s*\d{1,6}[smhd]\s*(,\s*\d{1,6}[smhd]\s*){0,29}$/, {
    message: 'OUTGOING_WEBHOOK_RETRY_SCHEDULE must be durations like 5s,5m,2h,1d, comma-separated',
  })
  OUTGOING_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
  /** An endpoint whose every delivery failed for this many days is disabled. */
  @Transform(toInt) @IsInt() @Min(1) @Max(365) OUTGOING_WEBHOOK_DISABLE_AFTER_DAYS = 5;
  /** Unset: false in production, true elsewhere. true: http and private addresses are allowed. */
  @Transform((p) => toBool({ value: emptyToUndefined(p) }))
  @IsOptional()
  @IsBoolean()
  OUTGOING_WEBHOOK_ALLOW_PRIVATE?: boolean;

  /** false: no `GET /metrics` (404) and no request metrics kept. */
  @Transform(toBool) @IsBoolean() METRICS_ENABLED = true;
  /** Set: `GET /metrics` needs `Authorization: Bearer <token>` (401 otherwise). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;
  /** On SIGTERM, how long requests in flight may take before the process exits anyway (status 1). */
  @Transform(toInt) @IsInt() @Min(1) @Max(600) SHUTDOWN_TIMEOUT_SECONDS = 25;

  @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';
  @Transform(toBool) @IsOptional() @IsBoolean() LOG_PRETTY?: boolean;
}

function messages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`),
  );
}

/** A configuration the service cannot run with; `settings` are the variables at fault. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }

  get settings(): string[] {
    return [...new Set(this.problems.map((p) => p.split(':', 1)[0]))];
  }
}

/** The variables once checked, with the values checking them had to parse (parsed once). */
export interface ValidatedEnv extends EnvironmentVariables {
  readonly trustProxy: TrustProxy;
}

/** Parses and checks raw variables; throws one ConfigError that names every bad variable. */
export function validateEnv(raw: Record<string, unknown>): ValidatedEnv {
  // Class fields are own properties (useDefineForClassFields), optional ones included.
  const known = new Set(Object.keys(new EnvironmentVariables()));
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (known.has(key) && value !== undefined) picked[key] = value;
  }
  const env = plainToInstance(EnvironmentVariables, picked, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  const problems = messages(errors);
  // Node refuses a headers timeout longer than the request timeout.
  if (env.HTTP_HEADERS_TIMEOUT_SECONDS > env.HTTP_REQUEST_TIMEOUT_SECONDS) {
    problems.push('HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS');
  }
  problems.push(...signInProblems(env), ...halfConfigured(env));
  let trustProxy: TrustProxy = false;
  const parsedTrustProxy = parseTrustProxy(env.TRUST_PROXY);
  if (typeof parsedTrustProxy === 'object' && 'problem' in parsedTrustProxy) {
    problems.push(`TRUST_PROXY: ${parsedTrustProxy.problem}`);
  } else {
    trustProxy = parsedTrustProxy;
  }
  if (env.NODE_ENV === 'production' && !env.DEVICE_TOKEN_SECRET) {
    problems.push('DEVICE_TOKEN_SECRET: must be set when NODE_ENV is production');
  }
  if (env.NODE_ENV === 'production' && !env.DATA_ENCRYPTION_KEY) {
    problems.push('DATA_ENCRYPTION_KEY: must be set when NODE_ENV is production');
  }
  if (problems.length > 0) {
    throw new ConfigError(problems);
  }
  return Object.assign(env, { trustProxy });
}

/** Settings that only work together: one set without the others stops the boot, naming them. */
const TOGETHER: { feature: string; names: (keyof EnvironmentVariables)[] }[] = [
  {
    feature: 'checkout',
    names: ['STRIPE_SECRET_KEY', 'STRIPE_LEASE_PRICE_ID', 'STRIPE_MONTHLY_PRICE_ID'],
  },
  { feature: 'the first admin', names: ['BOOTSTRAP_ORG_NAME', 'BOOTSTRAP_ADMIN_EMAIL'] },
];

function halfConfigured(env: EnvironmentVariables): string[] {
  return TOGETHER.flatMap(({ feature, names }) => {
    const set = names.filter((n) => env[n] !== undefined);
    if (set.length === 0 || set.length === names.length) return [];
    return names
      .filter((n) => !set.includes(n))
      .map(
        (n) =>
          `${n}: must be set when ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} (${feature} needs all of ${names.join(', ')})`,
      );
  });
}

/** An issuer spelling: a URL (`https://accounts.google.com`) or Google's bare host form. */
const ISSUER_SPELLING = /^(https?:\/\/[^\s,]+|[A-Za-z0-9.-]+(:\d+)?(\/[^\s,]*)?)$/;

/** Sign-in configured halfway stops the boot (docs/operations.md), naming what is missing. */
function signInProblems(env: EnvironmentVariables): string[] {
  const issuers = splitList(env.OIDC_ISSUER);
  const hasAudience = splitList(env.OIDC_AUDIENCE).length > 0;
  const problems: string[] = [];
  if (issuers.length > 0 && !hasAudience && !env.CONSOLE_OIDC_CLIENT_ID) {
    problems.push(
      'OIDC_AUDIENCE: must be set when OIDC_ISSUER is (the accepted client ids), unless CONSOLE_OIDC_CLIENT_ID is',
    );
  }
  if (issuers.length === 0 && (hasAudience || env.OIDC_JWKS_URI || env.CONSOLE_OIDC_CLIENT_ID)) {
    problems.push(
      'OIDC_ISSUER: must be set when OIDC_AUDIENCE, OIDC_JWKS_URI or CONSOLE_OIDC_CLIENT_ID is',
    );
  }
  const bad = issuers.filter((s) => !ISSUER_SPELLING.test(s));
  if (bad.length > 0) problems.push(`OIDC_ISSUER: not an issuer: ${bad.join(', ')}`);
  if (issuers.length > 0 && !env.OIDC_JWKS_URI && !issuers.some((s) => /^https?:\/\//.test(s))) {
    problems.push('OIDC_ISSUER: one spelling must be an http(s) URL to discover the keys from');
  }
  return problems;
}
