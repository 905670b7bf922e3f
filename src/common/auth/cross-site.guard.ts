import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthError } from './auth.error';
import { ErrorCode } from '../errors/error-code.enum';
import type { HttpRequest } from '../http/http-request';
import { isJsonMediaType } from '../http/media-type';
import { AppConfig } from '../../config/app-config';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookie routes that change state: JSON only, and no request another site started. SameSite=Lax
 * already keeps the cookie off most cross-site requests; this also covers login, same-site
 * subdomains outside CORS_ORIGINS and older browsers.
 */
@Injectable()
export class CrossSiteGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<HttpRequest>();
    if (SAFE_METHODS.has(req.method)) return true;
    const contentType = req.headers['content-type'];
    if (contentType !== undefined && !isJsonMediaType(contentType)) {
      throw new AuthError(
        ErrorCode.UnsupportedMediaType,
        'This route accepts only application/json.',
      );
    }
    const origin = req.headers.origin;
    const crossSite = req.headers['sec-fetch-site'] === 'cross-site';
    if (crossSite || (origin !== undefined && !this.config.corsOrigins.includes(origin))) {
      throw new AuthError(ErrorCode.Forbidden, 'Cross-site requests may not change state here.');
    }
    return true;
  }
}
