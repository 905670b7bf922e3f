import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers of one attempt (docs/outgoing-webhooks.md). */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs with every live secret (the new one first): during a rotation's overlap a receiver that
 * still holds the previous secret verifies too.
 */
export function signDelivery(
  secrets: string[],
  eventId: string,
  at: Date,
  payload: string,
): SignedHeaders {
  const seconds = Math.floor(at.getTime() / 1000);
  const stamp = new Date(seconds * 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(eventId, stamp, payload)).join(' '),
  };
}
