import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { HttpRequest } from '../common/http/http-request';
import { AppConfig } from '../config/app-config';
import { readSessionCookie } from './session/session-cookie';
import { ActiveSession, SessionService } from './session/session.service';

export interface AuthenticatedRequest extends HttpRequest {
  auth?: ActiveSession;
}

/** A valid session cookie (never a bearer token), with the account as it is now; 401 otherwise. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    req.auth = await this.sessions.authenticate(readSessionCookie(req, this.config));
    return true;
  }
}
