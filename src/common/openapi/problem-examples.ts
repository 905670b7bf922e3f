import { ErrorCode } from '../errors/error-code.enum';
import { problem, ProblemDetails } from '../errors/problem-details';

/**
 * Each code's status (CONTRACT.md section 3) and an example detail, for the API document only:
 * at run time services name the status themselves and the filter writes the body.
 */
const CATALOGUE: Record<ErrorCode, [status: number, detail: string]> = {
  [ErrorCode.ValidationFailed]: [400, 'The request is not valid.'],
  [ErrorCode.InvalidCoupon]: [400, 'The coupon is unknown or can no longer be used.'],
  [ErrorCode.PhiNotAccepted]: [400, 'Do not send protected health information here.'],
  [ErrorCode.InvalidSignature]: [400, 'The webhook signature is missing, wrong or too old.'],
  [ErrorCode.WebhookUrlRefused]: [400, 'The URL must be https and reach a public address.'],
  [ErrorCode.Unauthenticated]: [401, 'A valid session is required.'],
  [ErrorCode.InvalidIdToken]: [401, 'The ID token was refused.'],
  [ErrorCode.InvalidDevice]: [401, 'The device is not registered, not active, or does not match.'],
  [ErrorCode.AccountNotFound]: [403, 'No active account for this identity.'],
  [ErrorCode.AccountDisabled]: [403, 'This account is disabled.'],
  [ErrorCode.EmailNotVerified]: [403, 'The identity provider has not verified this email.'],
  [ErrorCode.Forbidden]: [403, 'You may not do this.'],
  [ErrorCode.NotFound]: [404, 'No such resource.'],
  [ErrorCode.MethodNotAllowed]: [405, 'This method is not allowed here.'],
  [ErrorCode.RequestTimeout]: [408, 'The request was not received in time.'],
  [ErrorCode.Conflict]: [409, 'This change conflicts with the current state.'],
  [ErrorCode.DeviceExists]: [409, 'A device with this device_id is already registered.'],
  [ErrorCode.UserExists]: [409, 'An account with this email already exists.'],
  [ErrorCode.LimitReached]: [409, 'This organization already has 10 webhook endpoints.'],
  [ErrorCode.PayloadTooLarge]: [413, 'The request body is too large.'],
  [ErrorCode.UnsupportedMediaType]: [415, 'The request body must be application/json.'],
  [ErrorCode.HeadersTooLarge]: [431, 'The request headers are too large.'],
  [ErrorCode.RateLimited]: [429, 'Too many requests; try again in 30 seconds.'],
  [ErrorCode.ProcessorUnavailable]: [502, 'The payment processor could not be reached.'],
  [ErrorCode.ProcessorRejected]: [502, 'The payment processor refused the request.'],
  [ErrorCode.CheckoutNotConfigured]: [503, 'Checkout is not configured.'],
  [ErrorCode.SignInNotConfigured]: [503, 'Sign-in is not configured.'],
  [ErrorCode.WebhookNotConfigured]: [503, 'The webhook is not configured.'],
  [ErrorCode.Unavailable]: [503, 'The service is temporarily unavailable.'],
  [ErrorCode.InternalError]: [500, 'An unexpected error occurred.'],
};

export function statusOf(code: ErrorCode): number {
  return CATALOGUE[code][0];
}

/** A body exactly as the filter would write it for this code. */
export function exampleOf(code: ErrorCode): ProblemDetails {
  const [status, detail] = CATALOGUE[code];
  const errors =
    code === ErrorCode.ValidationFailed
      ? [{ field: 'email', message: 'email must be an email' }]
      : undefined;
  return problem(status, code, detail, errors);
}
