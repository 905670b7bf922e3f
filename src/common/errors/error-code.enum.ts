/**
 * Every stable error code the API answers with (CONTRACT.md section 3). Clients branch on these,
 * so a code is never renamed; add a new one instead.
 */
export enum ErrorCode {
  ValidationFailed = 'validation_failed',
  InvalidCoupon = 'invalid_coupon',
  PhiNotAccepted = 'phi_not_accepted',
  InvalidSignature = 'invalid_signature',
  Unauthenticated = 'unauthenticated',
  InvalidIdToken = 'invalid_id_token',
  InvalidDevice = 'invalid_device',
  AccountNotFound = 'account_not_found',
  AccountDisabled = 'account_disabled',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  DeviceExists = 'device_exists',
  UserExists = 'user_exists',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  RateLimited = 'rate_limited',
  ProcessorUnavailable = 'processor_unavailable',
  CheckoutNotConfigured = 'checkout_not_configured',
  SignInNotConfigured = 'sign_in_not_configured',
  WebhookNotConfigured = 'webhook_not_configured',
  Unavailable = 'unavailable',
  InternalError = 'internal_error',
}

/** The code for an HTTP status that reached the filter without one of ours. */
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
    case 409:
      return ErrorCode.Conflict;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 415:
      return ErrorCode.UnsupportedMediaType;
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
