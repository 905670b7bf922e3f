import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Role } from './auth-user';
import { CrossSiteGuard } from './cross-site.guard';
import { REQUIRED_ROLE, RoleGuard } from './role.guard';
import { SessionGuard } from './session.guard';

/**
 * A route for signed-in people: session cookie only (401 `unauthenticated`), cross-site state
 * changes refused, and with `role: 'admin'` a 403 `forbidden` for members.
 */
export function Auth(options: { role?: Role } = {}) {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, options.role ?? 'member'),
    UseGuards(CrossSiteGuard, SessionGuard, RoleGuard),
    ApiCookieAuth('session'),
    ApiUnauthorizedResponse({ description: '`unauthenticated`: no valid session' }),
    ApiForbiddenResponse({
      description:
        options.role === 'admin'
          ? '`forbidden`: role too low, or a cross-site request'
          : '`forbidden`: a cross-site request',
    }),
  );
}
