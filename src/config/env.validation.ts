import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_PGLITE_DATA_DIR } from './early-database-env';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const DB_URL_OPTIONS = {
  require_tld: false,
  require_protocol: true,
  protocols: ['postgres', 'postgresql'],
};
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  return value;
};
/** An empty string in .env means "unset", as it does for most twelve-factor tools. */
const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * Every environment variable the service reads (CONTRACT.md section 2), with its default.
 * Validated once at boot; nothing outside src/config reads process.env.
 */
export class EnvironmentVariables {
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '127.0.0.1';
  @IsIn(NODE_ENVS) NODE_ENV: NodeEnv = 'development';

  @Transform(emptyToUndefined) @IsOptional() @IsUrl(DB_URL_OPTIONS) DATABASE_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) @Max(100) DATABASE_POOL_SIZE = DEFAULT_DATABASE_POOL_SIZE;
  @IsString() @MinLength(1) PGLITE_DATA_DIR = DEFAULT_PGLITE_DATA_DIR;

  @IsUrl(URL_OPTIONS) BASE_URL = 'http://localhost:3000';
  @IsUrl(URL_OPTIONS) SITE_URL = 'http://localhost:3000';
  @Transform(emptyToUndefined) @IsOptional() @IsString() CORS_ORIGINS?: string;
  /** A hop count or a comma-separated list of subnets; `true` would trust any X-Forwarded-For. */
  @Matches(/^(false|\d+|[0-9a-fA-F.:/,\s]+|loopback|linklocal|uniquelocal)$/, {
    message: 'TRUST_PROXY must be false, a hop count or a list of subnets (never true)',
  })
  TRUST_PROXY = 'false';

  @Matches(/^[A-Za-z0-9_-]+$/) SESSION_COOKIE_NAME = 'service_session';
  @Transform(toInt) @IsInt() @Min(60) SESSION_ABSOLUTE_TTL_SECONDS = 43200;
  @Transform(toInt) @IsInt() @Min(60) SESSION_IDLE_TTL_SECONDS = 1800;

  @Transform(emptyToUndefined) @IsOptional() @IsString() OIDC_ISSUER?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() OIDC_AUDIENCE?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsUrl(URL_OPTIONS) OIDC_JWKS_URI?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(32, { message: 'DEVICE_TOKEN_SECRET must be at least 32 bytes' })
  DEVICE_TOKEN_SECRET?: string;
  @Transform(toInt) @IsInt() @Min(30) @Max(86400) DEVICE_TOKEN_TTL_SECONDS = 900;

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

  @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';
  @Transform(toBool) @IsOptional() @IsBoolean() LOG_PRETTY?: boolean;
}

function messages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`),
  );
}

/** Parses and checks raw variables; throws one error that names every bad variable. */
export function validateEnv(raw: Record<string, unknown>): EnvironmentVariables {
  // Class fields are own properties (useDefineForClassFields), optional ones included.
  const known = new Set(Object.keys(new EnvironmentVariables()));
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (known.has(key) && value !== undefined) picked[key] = value;
  }
  const env = plainToInstance(EnvironmentVariables, picked, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false });
  const problems = messages(errors);
  if (env.NODE_ENV === 'production' && !env.DEVICE_TOKEN_SECRET) {
    problems.push('DEVICE_TOKEN_SECRET: must be set when NODE_ENV is production');
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return env;
}
