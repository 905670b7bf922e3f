import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthError } from './auth.error';
import { ErrorCode } from '../errors/error-code.enum';
import { HandlerMetadata } from '../http/handler-metadata';
import { Role } from './auth-user';
import { AuthenticatedRequest } from './session-authenticator';

export const REQUIRED_ROLE = Symbol('required-role');

/** Runs after SessionGuard: 403 when the account's current role is below the route's. */
@Injectable()
export class RoleGuard implements CanActivate {
  private readonly requiredRole: HandlerMetadata<Role | undefined>;

  constructor(reflector: Reflector) {
    this.requiredRole = new HandlerMetadata((handler, owner) =>
      reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [handler, owner]),
    );
  }

  canActivate(context: ExecutionContext): boolean {
    const role = this.requiredRole.of(context);
    if (role !== 'admin') return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (req.auth?.user.role === 'admin') return true;
    throw new AuthError(ErrorCode.Forbidden, 'This needs the admin role in your organization.');
  }
}
