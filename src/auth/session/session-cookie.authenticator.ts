import { Injectable } from '@nestjs/common';
import type { HttpRequest } from '../../common/http/http-request';
import { ActiveSession, SessionAuthenticator } from '../../common/auth/session-authenticator';
import { AppConfig } from '../../config/app-config';
import { readSessionCookie } from './session-cookie';
import { SessionService } from './session.service';

/** `@Auth()`'s session check (common/auth/session.guard.ts): the session cookie, read by SessionService. */
@Injectable()
export class SessionCookieAuthenticator implements SessionAuthenticator {
  constructor(
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
  ) {}

  authenticate(req: HttpRequest): Promise<ActiveSession> {
    return this.sessions.authenticate(readSessionCookie(req, this.config));
  }
}
