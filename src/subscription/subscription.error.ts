import { DomainError } from '../common/errors/domain.error';
import { ErrorCode } from '../common/errors/error-code.enum';

/** An expected failure reading subscription records. */
export class SubscriptionError extends DomainError {}

/** The 404 of an id that names no record, whatever was asked of it. */
export const noSuchSubscription = (): SubscriptionError =>
  new SubscriptionError(ErrorCode.NotFound, 'No such subscription.');
