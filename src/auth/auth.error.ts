import { DomainError } from '../common/errors/domain.error';

/** An expected failure of sign-in, sessions or accounts. */
export class AuthError extends DomainError {}
