import { DomainError } from '../errors/domain.error';

/** An expected failure of sign-in or sessions. */
export class AuthError extends DomainError {}
