import { DomainError } from '../common/errors/domain.error';

/** An expected failure of a checkout: bad input, not configured, or the processor's answer. */
export class CheckoutError extends DomainError {}
