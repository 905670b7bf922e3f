import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { IssuedSession } from './session.service';

function options(config: AppConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.session.secureCookie };
}

/** The session token from the request's cookie, if any. */
export function readSessionCookie(req: Request, config: AppConfig): string | undefined {
  const cookies = req.cookies as Record<string, unknown> | undefined;
  const value = cookies?.[config.session.cookieName];
  return typeof value === 'string' ? value : undefined;
}

/** Max-Age is what is left of the absolute lifetime; the server enforces it as well. */
export function setSessionCookie(res: Response, config: AppConfig, session: IssuedSession): void {
  const maxAge = Math.max(0, session.expiresAt.getTime() - session.issuedAt.getTime());
  res.cookie(config.session.cookieName, session.token, { ...options(config), maxAge });
}

export function clearSessionCookie(res: Response, config: AppConfig): void {
  res.clearCookie(config.session.cookieName, options(config));
}
