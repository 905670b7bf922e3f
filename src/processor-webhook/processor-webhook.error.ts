import { DomainError } from '../common/errors/domain.error';

/** An expected failure receiving a processor event. */
export class ProcessorWebhookError extends DomainError {}
