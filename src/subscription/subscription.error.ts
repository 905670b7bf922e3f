import { DomainError } from '../common/errors/domain.error';

/** An expected failure reading subscription records. */
export class SubscriptionError extends DomainError {}
