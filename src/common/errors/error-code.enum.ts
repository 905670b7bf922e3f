/**
 * Every stable error code the API answers with (docs/api.md). Clients branch on these,
 * so a code is never renamed; add a new one instead.
 */
export enum ErrorCode {
  ValidationFailed = 'validation_failed',
  InvalidCoupon = 'invalid_coupon',
  PhiNotAccepted = 'phi_not_accepted',
  InvalidSignature = 'invalid_signature',
  /** An outgoing webhook URL the address rules do not allow. */
  WebhookUrlRefused = 'webhook_url_refused',
  Unauthenticated = 'unauthenticated',
  InvalidIdToken = 'invalid_id_token',
  InvalidDevice = 'invalid_device',
  AccountNotFound = 'account_not_found',
  AccountDisabled = 'account_disabled',
  /** A valid ID token whose email the provider has not verified, for an account not linked yet. */
  EmailNotVerified = 'email_not_verified',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  /** The client did not send its whole request within the server's time limits. */
  RequestTimeout = 'request_timeout',
  Conflict = 'conflict',
  DeviceExists = 'device_exists',
  UserExists = 'user_exists',
  /** A per-organization limit is full (webhook endpoints). */
  LimitReached = 'limit_reached',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  /** The request line and headers together exceed the server's limit (16 KiB). */
  HeadersTooLarge = 'headers_too_large',
  RateLimited = 'rate_limited',
  ProcessorUnavailable = 'processor_unavailable',
  /** The processor refused a request of ours (a wrong price id, a revoked key): our fault. */
  ProcessorRejected = 'processor_rejected',
  CheckoutNotConfigured = 'checkout_not_configured',
  SignInNotConfigured = 'sign_in_not_configured',
  WebhookNotConfigured = 'webhook_not_configured',
  Unavailable = 'unavailable',
  InternalError = 'internal_error',
}

interface ErrorRow {
  status: number;
  /** A typical detail: the API document's example, and the answer's when it has none of its own. */
  example: string;
  /** The code an HTTP error of this status gets when it reached the filter without one of ours. */
  generic?: true;
}

/**
 * The one table of the service's errors: each code's HTTP status (the ProblemDetailsFilter's
 * answer, the API document's grouping) and an example detail. Services name the code, never a status.
 */
export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorRow>> = {
  [ErrorCode.ValidationFailed]: {
    status: 400,
    example: 'The request is not valid.',
    generic: true,
  },
  [ErrorCode.InvalidCoupon]: {
    status: 400,
    example: 'The coupon is unknown or can no longer be used.',
  },
  [ErrorCode.PhiNotAccepted]: {
    status: 400,
    example: 'Do not send protected health information here.',
  },
  [ErrorCode.InvalidSignature]: {
    status: 400,
    example: 'The webhook signature is missing, wrong or too old.',
  },
  [ErrorCode.WebhookUrlRefused]: {
    status: 400,
    example: 'The URL must be https and reach a public address.',
  },
  [ErrorCode.Unauthenticated]: {
    status: 401,
    example: 'A valid session is required.',
    generic: true,
  },
  [ErrorCode.InvalidIdToken]: { status: 401, example: 'The ID token was refused.' },
  [ErrorCode.InvalidDevice]: {
    status: 401,
    example: 'The device is not registered, not active, or does not match.',
  },
  [ErrorCode.AccountNotFound]: { status: 403, example: 'No active account for this identity.' },
  [ErrorCode.AccountDisabled]: { status: 403, example: 'This account is disabled.' },
  [ErrorCode.EmailNotVerified]: {
    status: 403,
    example: 'The identity provider has not verified this email.',
  },
  [ErrorCode.Forbidden]: { status: 403, example: 'You may not do this.', generic: true },
  [ErrorCode.NotFound]: { status: 404, example: 'No such resource.', generic: true },
  [ErrorCode.MethodNotAllowed]: {
    status: 405,
    example: 'This method is not allowed here.',
    generic: true,
  },
  [ErrorCode.RequestTimeout]: {
    status: 408,
    example: 'The request was not received in time.',
    generic: true,
  },
  [ErrorCode.Conflict]: {
    status: 409,
    example: 'This change conflicts with the current state.',
    generic: true,
  },
  [ErrorCode.DeviceExists]: {
    status: 409,
    example: 'A device with this device_id is already registered.',
  },
  [ErrorCode.UserExists]: { status: 409, example: 'An account with this email already exists.' },
  [ErrorCode.LimitReached]: {
    status: 409,
    example: 'This organization already has 10 webhook endpoints.',
  },
  [ErrorCode.PayloadTooLarge]: {
    status: 413,
    example: 'The request body is too large.',
    generic: true,
  },
  [ErrorCode.UnsupportedMediaType]: {
    status: 415,
    example: 'The request body must be application/json.',
    generic: true,
  },
  [ErrorCode.HeadersTooLarge]: {
    status: 431,
    example: 'The request line and headers are too large.',
    generic: true,
  },
  [ErrorCode.RateLimited]: {
    status: 429,
    example: 'Too many requests; try again in 30 seconds.',
    generic: true,
  },
  [ErrorCode.ProcessorUnavailable]: {
    status: 502,
    example: 'The payment processor could not be reached.',
    generic: true,
  },
  [ErrorCode.ProcessorRejected]: {
    status: 502,
    example: 'The payment processor refused the request.',
  },
  [ErrorCode.CheckoutNotConfigured]: { status: 503, example: 'Checkout is not configured.' },
  [ErrorCode.SignInNotConfigured]: { status: 503, example: 'Sign-in is not configured.' },
  [ErrorCode.WebhookNotConfigured]: { status: 503, example: 'The webhook is not configured.' },
  [ErrorCode.Unavailable]: {
    status: 503,
    example: 'The service is temporarily unavailable.',
    generic: true,
  },
  [ErrorCode.InternalError]: {
    status: 500,
    example: 'An unexpected error occurred.',
    generic: true,
  },
};

export function statusOf(code: ErrorCode): number {
  return ERROR_TABLE[code].status;
}

/** The table's detail for a code: an answer's when it has no more telling one. */
export function exampleOf(code: ErrorCode): string {
  return ERROR_TABLE[code].example;
}

const GENERIC_BY_STATUS = new Map(
  Object.entries(ERROR_TABLE)
    .filter(([, row]) => row.generic)
    .map(([code, row]) => [row.status, code as ErrorCode]),
);

/** The code for an HTTP status that reached the filter without one of ours (the way back). */
export function codeForStatus(status: number): ErrorCode {
  return GENERIC_BY_STATUS.get(status) ?? ErrorCode.InternalError;
}
