import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { WEBHOOK_PATH } from '../../src/processor-webhook/processor-webhook.controller';
import { ProcessedWebhookEvent } from '../../src/processor-webhook/processed-webhook-event.entity';
import { OLD_WEBHOOK_SECRET, WEBHOOK_SECRET } from './processor-events';
import type { TestApp } from './test-app';

/** Both secrets, as during a rotation. */
export const WEBHOOK_ENV = { STRIPE_WEBHOOK_SECRET: `${WEBHOOK_SECRET},${OLD_WEBHOOK_SECRET}` };

export const webhookEventsOf = (t: TestApp) =>
  t.app.get<Repository<ProcessedWebhookEvent>>(getRepositoryToken(ProcessedWebhookEvent));

/** Delivers a payload as the processor does: exact bytes, JSON content type, signature header. */
export function deliver(t: TestApp, payload: string, signature?: string) {
  const req = t.http().post(WEBHOOK_PATH).set('Content-Type', 'application/json; charset=utf-8');
  if (signature !== undefined) req.set('Stripe-Signature', signature);
  return req.send(payload);
}

/** What the default completed event (processor-events.ts) stores on the subscription. */
export const PAID_DETAILS = {
  status: 'paid',
  customerEmail: 'dana@example.com',
  customerName: 'Dana Carer',
  customerPhone: '+15555550123',
  recipientName: 'Ruth Carer',
  livingSituation: 'livesalone',
  primaryConcern: 'medicationreminders',
  shippingAddress: '1 Main St, Apt 2, Springfield, IL 62701, US',
  recipientZip: '62701',
  processorSubscriptionId: 'sub_test_456',
  processorCustomerId: 'cus_test_123',
};
