/**
 * Every stable error code the API answers with (CONTRACT.md section 3). Clients branch on these,
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

/** The one table from a code to the HTTP status it answers with (CONTRACT.md section 3). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.InvalidCoupon]: 400,
  [ErrorCode.PhiNotAccepted]: 400,
  [ErrorCode.InvalidSignature]: 400,
  [ErrorCode.WebhookUrlRefused]: 400,
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.InvalidIdToken]: 401,
  [ErrorCode.InvalidDevice]: 401,
  [ErrorCode.AccountNotFound]: 403,
  [ErrorCode.AccountDisabled]: 403,
  [ErrorCode.EmailNotVerified]: 403,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.RequestTimeout]: 408,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.DeviceExists]: 409,
  [ErrorCode.UserExists]: 409,
  [ErrorCode.LimitReached]: 409,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.HeadersTooLarge]: 431,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.ProcessorUnavailable]: 502,
  [ErrorCode.ProcessorRejected]: 502,
  [ErrorCode.CheckoutNotConfigured]: 503,
  [ErrorCode.SignInNotConfigured]: 503,
  [ErrorCode.WebhookNotConfigured]: 503,
  [ErrorCode.Unavailable]: 503,
  [ErrorCode.InternalError]: 500,
};

/** The code for an HTTP status that reached the filter without one of ours (the way back). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return ErrorCode.ValidationFailed;
    case 401:
      return ErrorCode.Unauthenticated;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.NotFound;
    case 405:
      return ErrorCode.MethodNotAllowed;
    case 408:
      return ErrorCode.RequestTimeout;
    case 409:
      return ErrorCode.Conflict;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 415:
      return ErrorCode.UnsupportedMediaType;
    case 431:
      return ErrorCode.HeadersTooLarge;
    case 429:
      return ErrorCode.RateLimited;
    case 502:
      return ErrorCode.ProcessorUnavailable;
    case 503:
      return ErrorCode.Unavailable;
    default:
      return ErrorCode.InternalError;
  }
}
