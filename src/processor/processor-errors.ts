import { stripeSdk } from './payment-processor.client';

/**
 * How a failed processor call ends for the caller: `coupon` (the customer's coupon is refused),
 * `rejected` (the processor refused our request: a wrong price id, a revoked key; our fault), or
 * `unavailable` (no answer, a 5xx or a rate limit: worth trying again).
 */
export type ProcessorFailure = 'coupon' | 'rejected' | 'unavailable';

export function classifyProcessorError(err: unknown, withCoupon: boolean): ProcessorFailure {
  const { errors } = stripeSdk();
  if (!(err instanceof errors.StripeError)) return 'unavailable';
  if (withCoupon && isCouponError(err)) return 'coupon';
  const status = err.statusCode ?? 0;
  return status >= 400 && status < 500 && status !== 429 ? 'rejected' : 'unavailable';
}

/** The processor refuses an unknown, expired or used-up coupon as an invalid discount. */
function isCouponError(err: InstanceType<ReturnType<typeof stripeSdk>['errors']['StripeError']>) {
  if (!(err instanceof stripeSdk().errors.StripeInvalidRequestError)) return false;
  return (
    (err.param ?? '').startsWith('discounts') ||
    err.code === 'coupon_expired' ||
    /coupon/i.test(err.message)
  );
}

/** Email addresses a processor message may quote back (customer details never reach logs). */
const EMAIL = /[^\s'"<>@]+@[^\s'"<>@]+/g;

/** A one-line reason: type, status, code, message and the processor's request id. */
export function describeProcessorError(err: unknown): string {
  if (err instanceof stripeSdk().errors.StripeError) {
    const request = err.requestId ? `(request ${err.requestId})` : undefined;
    const parts = [
      err.type,
      err.statusCode,
      err.code,
      err.message.replace(EMAIL, '<email>'),
      request,
    ];
    return parts
      .filter((p) => p !== undefined && p !== '')
      .join(' ')
      .slice(0, 500);
  }
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}

/** The processor does not have it (any more): a deletion asked again counts as done. */
export function isResourceMissing(err: unknown): boolean {
  const { errors } = stripeSdk();
  return (
    err instanceof errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing')
  );
}
