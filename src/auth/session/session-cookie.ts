import type { HttpServer } from '@nestjs/common';
import { parse, SerializeOptions, serialize } from 'cookie';
import type { HttpRequest } from '../../common/http/http-request';
import { AppConfig } from '../../config/app-config';
import { IssuedSession } from './session.service';

function options(config: AppConfig): SerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: config.session.secureCookie };
}

/**
 * The session token from the request's `Cookie` header, if any. Parsed here, on the routes that
 * read the session, and kept on the request: a global cookie parser paid for it on every request
 * (docs/development.md). A value is percent-decoded and one pair of double quotes around it is
 * removed (RFC 6265 allows them), as cookie-parser did; its `j:` JSON values are not undone (the
 * service never sets them).
 */
export function readSessionCookie(req: HttpRequest, config: AppConfig): string | undefined {
  req.cookies ??= parse(req.headers.cookie ?? '');
  const value = req.cookies[config.session.cookieName];
  return value !== undefined && value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/**
 * Max-Age is what is left of the absolute lifetime; the server enforces it as well. Written
 * through Nest's HTTP adapter (`HttpAdapterHost`), so the controller needs no platform type.
 */
export function setSessionCookie(
  http: HttpServer,
  res: unknown,
  config: AppConfig,
  session: IssuedSession,
): void {
  const ms = Math.max(0, session.expiresAt.getTime() - session.issuedAt.getTime());
  // Max-Age for current browsers, Expires for old ones; Max-Age is in seconds. Both come from the
  // session, whose times are the Clock's: it was issued just now.
  const cookie = serialize(config.session.cookieName, session.token, {
    ...options(config),
    maxAge: Math.floor(ms / 1000),
    expires: session.expiresAt,
  });
  http.setHeader(res, 'Set-Cookie', cookie);
}

export function clearSessionCookie(http: HttpServer, res: unknown, config: AppConfig): void {
  const cookie = serialize(config.session.cookieName, '', {
    ...options(config),
    expires: new Date(0),
  });
  http.setHeader(res, 'Set-Cookie', cookie);
}
