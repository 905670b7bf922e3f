import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest, SessionAuthenticator } from './session-authenticator';

/** A valid session cookie (never a bearer token), with the account as it is now; 401 otherwise. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    req.auth = await this.sessions.authenticate(req);
    return true;
  }
}
