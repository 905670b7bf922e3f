import type { RetentionRule } from '../database/housekeeping.service';

/**
 * Event ids are kept 90 days (docs/checkout.md): far longer than the processor retries a
 * delivery (3 days), so a duplicate is still recognised, without the table growing for ever.
 */
export const PROCESSOR_WEBHOOK_RETENTION: RetentionRule = {
  name: 'webhook_events',
  table: 'processed_webhook_events',
  endedAt: 'received_at',
  retentionSeconds: 90 * 24 * 3600,
};
