import { DomainError } from '../common/errors/domain.error';

/** An expected failure of organizations. */
export class OrgError extends DomainError {}
