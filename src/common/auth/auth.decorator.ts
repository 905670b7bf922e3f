import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth } from '@nestjs/swagger';
import { ErrorCode } from '../errors/error-code.enum';
import { ApiProblems } from '../openapi/api-problems.decorator';
import { Role } from './auth-user';
import { CrossSiteGuard } from './cross-site.guard';
import { REQUIRED_ROLE, RoleGuard } from './role.guard';
import { SessionGuard } from './session.guard';

/**
 * A route for signed-in people: session cookie only (401 `unauthenticated`), cross-site state
 * changes refused, and with `role: 'admin'` a 403 `forbidden` for members. Routes that change state
 * add `ApiCookieWrite()` for what CrossSiteGuard refuses.
 */
export function Auth(options: { role?: Role } = {}) {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, options.role ?? 'member'),
    UseGuards(CrossSiteGuard, SessionGuard, RoleGuard),
    ApiCookieAuth('session'),
    // Every session is read from the database: 503 while it is away.
    ApiProblems(
      ErrorCode.Unauthenticated,
      ErrorCode.Unavailable,
      ...(options.role === 'admin' ? [ErrorCode.Forbidden] : []),
    ),
  );
}
