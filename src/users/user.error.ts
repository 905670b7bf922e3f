import { DomainError } from '../common/errors/domain.error';

/** An expected failure of account administration. */
export class UserError extends DomainError {}
