import { DomainError } from '../common/errors/domain.error';

/** An expected failure of the webhook endpoint API (limit, refused URL, unknown endpoint...). */
export class OutgoingWebhookError extends DomainError {}
