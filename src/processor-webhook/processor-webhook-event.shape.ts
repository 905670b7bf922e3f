import type Stripe from 'stripe';

/**
 * True when a verified event has the envelope every event has: a string id and type, and an
 * object under `data.object`. The signature proves who sent it, not that its shape is sound.
 */
export function isWellFormedEvent(event: unknown): event is Stripe.Event {
  if (typeof event !== 'object' || event === null) return false;
  const { id, type, data } = event as { id?: unknown; type?: unknown; data?: unknown };
  const object =
    typeof data === 'object' && data !== null ? (data as { object?: unknown }).object : null;
  return (
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 255 &&
    typeof type === 'string' &&
    type.length > 0 &&
    typeof object === 'object' &&
    object !== null &&
    !Array.isArray(object)
  );
}
