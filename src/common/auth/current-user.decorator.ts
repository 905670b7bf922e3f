import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthUser } from './auth-user';
import { AuthenticatedRequest } from './session-authenticator';

/** The signed-in `AuthUser`, on routes behind `@Auth()`. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthUser => {
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (!auth) throw new Error('@CurrentUser() used on a route without @Auth()');
    return auth.user;
  },
);
