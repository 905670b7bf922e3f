import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLog } from '../common/logging/audit-log';
import { retention } from '../database/housekeeping.module';
import { OrgModule } from '../org/org.module';
import { AuthBootstrapService } from './auth-bootstrap.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CrossSiteGuard } from './cross-site.guard';
import { IdTokenVerifier } from './id-token.verifier';
import { OidcDiscovery } from './oidc-discovery.service';
import { RoleGuard } from './role.guard';
import { SessionController } from './session.controller';
import { SessionGuard } from './session.guard';
import { Session } from './session.entity';
import { SESSION_RETENTION } from './session-retention';
import { SessionService } from './session.service';
import { SignInAudit } from './sign-in-audit';
import { UserController } from './user.controller';
import { User } from './user.entity';
import { UserService } from './user.service';
import { UserSessionsService } from './user-sessions.service';

/**
 * Sign-in, sessions and accounts. Global, so any feature's controller can use `@Auth()` without
 * importing this module (its guards resolve their services from here).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([User, Session]), OrgModule],
  controllers: [AuthController, SessionController, UserController],
  providers: [
    AuthBootstrapService,
    AuthService,
    IdTokenVerifier,
    OidcDiscovery,
    SignInAudit,
    AuditLog,
    SessionService,
    UserSessionsService,
    retention(SESSION_RETENTION),
    UserService,
    CrossSiteGuard,
    SessionGuard,
    RoleGuard,
  ],
  exports: [SessionService, UserService, CrossSiteGuard, SessionGuard, RoleGuard, OidcDiscovery],
})
export class AuthModule {}
