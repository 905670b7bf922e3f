import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { DomainError } from './domain.error';
import { ErrorCode } from './error-code.enum';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection is not established/i,
  /Cannot use a pool after calling end/i,
  // TypeORM's, for a statement made once the data source closed (shutting down).
  /Driver not Connected/i,
];

/**
 * SQLSTATEs that say "not now" rather than "wrong query": the statement timeout (query_canceled),
 * lock_timeout (lock_not_available), too_many_connections, and the 08xxx / 57P0x families below.
 */
const UNAVAILABLE_STATES = new Set(['57014', '55P03', '53300']);

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when an error means "the database cannot be reached" rather than "the query was wrong":
 * a network failure, a pool timeout, a PostgreSQL connection-class state (08xxx, 57P0x), a
 * statement or lock timeout, or a query runner whose connection was already taken away.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    if (e instanceof QueryRunnerAlreadyReleasedError) return true;
    const code = codeOf(e);
    if (code && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code))) return true;
    if (code && (/^08/.test(code) || /^57P0[1-3]$/.test(code))) return true;
    const message = e instanceof Error ? e.message : '';
    if (UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    e =
      (e as { driverError?: unknown; cause?: unknown }).driverError ??
      (e as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATE unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** Unique indexes whose violation means something a client can act on; any other is `conflict`. */
const UNIQUE_INDEX_ERRORS = {
  UQ_users_email: [ErrorCode.UserExists, 'An account with this email already exists.'],
  UQ_devices_device_id: [
    ErrorCode.DeviceExists,
    'A device with this device_id is already registered.',
  ],
  UQ_subscriptions_live_device: [
    ErrorCode.Conflict,
    'The device is held by another live (paid or past_due) subscription.',
  ],
} satisfies Record<string, [ErrorCode, string]>;
type UniqueIndex = keyof typeof UNIQUE_INDEX_ERRORS;

/** The 409 a value taken in `index` means: its violation, or a check that finds it first. */
export function takenIn(index: UniqueIndex): DomainError {
  const [code, detail] = UNIQUE_INDEX_ERRORS[index];
  return new DomainError(code, detail);
}

const isUniqueIndex = (name: unknown): name is UniqueIndex =>
  typeof name === 'string' && Object.hasOwn(UNIQUE_INDEX_ERRORS, name);

/**
 * A unique value already taken, as the 409 it means, whichever path hit it: the index decides,
 * not a check before the write, which two concurrent requests would both pass.
 */
export function conflictFor(err: unknown): DomainError | undefined {
  const driverError: unknown = err instanceof QueryFailedError ? err.driverError : err;
  if (codeOf(driverError) !== UNIQUE_VIOLATION) return undefined;
  const constraint = (driverError as { constraint?: unknown }).constraint;
  if (isUniqueIndex(constraint)) return takenIn(constraint);
  return new DomainError(ErrorCode.Conflict, 'This value is already taken.');
}
