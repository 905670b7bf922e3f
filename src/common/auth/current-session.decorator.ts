import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ActiveSession, AuthenticatedRequest } from './session-authenticator';

/** The session itself (for refresh), on routes behind `@Auth()`. */
export const CurrentSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ActiveSession => {
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (!auth) throw new Error('@CurrentSession() used on a route without @Auth()');
    return auth;
  },
);
