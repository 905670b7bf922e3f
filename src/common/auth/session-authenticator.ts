import type { HttpRequest } from '../http/http-request';
import type { AuthUser } from './auth-user';

/** A signed-in person's session, as read on this request. */
export interface ActiveSession {
  id: string;
  user: AuthUser;
  expiresAt: Date;
}

export interface AuthenticatedRequest extends HttpRequest {
  auth?: ActiveSession;
}

/**
 * What SessionGuard asks of the sign-in feature: the request's session with the account as it is
 * now, or a 401 `unauthenticated`. Declared here and provided by auth/, so the features that
 * declare routes with `@Auth()` sit beside auth/, not above it.
 */
export abstract class SessionAuthenticator {
  abstract authenticate(req: HttpRequest): Promise<ActiveSession>;
}
