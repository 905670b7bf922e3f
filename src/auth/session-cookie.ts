import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { IssuedSession } from './session.service';

function options(config: AppConfig): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.session.secureCookie };
}

/** The session token from the request's cookie, if any. */
export function readSessionCookie(req: FastifyRequest, config: AppConfig): string | undefined {
  const value = req.cookies[config.session.cookieName];
  return typeof value === 'string' ? value : undefined;
}

/** Max-Age is what is left of the absolute lifetime; the server enforces it as well. */
export function setSessionCookie(
  reply: FastifyReply,
  config: AppConfig,
  session: IssuedSession,
): void {
  const ms = Math.max(0, session.expiresAt.getTime() - session.issuedAt.getTime());
  // Max-Age for current browsers, Expires for old ones; Max-Age is in seconds.
  void reply.setCookie(config.session.cookieName, session.token, {
    ...options(config),
    maxAge: Math.floor(ms / 1000),
    expires: new Date(Date.now() + ms),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig): void {
  void reply.clearCookie(config.session.cookieName, options(config));
}
