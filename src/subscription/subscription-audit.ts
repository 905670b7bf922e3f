import type { AuditSubject } from '../audit/audit-event.types';
import type { AppConfig } from '../config/app-config';

/** A record as an audit event's subject: records belong to the fulfilment organization. */
export const subscriptionSubject = (config: AppConfig, id: string): AuditSubject => ({
  type: 'subscription',
  id,
  orgId: config.subscriptions.fulfilmentOrgId ?? null,
});
