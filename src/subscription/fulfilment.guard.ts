import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { SubscriptionError } from './subscription.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AppConfig } from '../config/app-config';

/**
 * Runs after SessionGuard: only users of the organization FULFILMENT_ORG_ID (any role) read
 * subscriptions; with it unset, no one does. The account's org is read on every request, so a
 * user moved out of the org loses access at once.
 */
@Injectable()
export class FulfilmentGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const orgId = context.switchToHttp().getRequest<{ auth?: { user: AuthUser } }>().auth
      ?.user.orgId;
    const allowed = this.config.subscriptions.fulfilmentOrgId;
    if (allowed !== undefined && orgId === allowed) return true;
    throw new SubscriptionError(
      ErrorCode.Forbidden,
      'Subscriptions are visible only to the fulfilment organization.',
    );
  }
}
