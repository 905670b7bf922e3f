import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogModule } from '../common/logging/audit-log.module';
import { AuditTrailModule } from '../audit/audit-trail.module';
import { OrgModule } from '../org/org.module';
import { AuthBootstrapService } from './sign-in/auth-bootstrap.service';
import { AuthController } from './sign-in/auth.controller';
import { AuthService } from './sign-in/auth.service';
import { CrossSiteGuard } from '../common/auth/cross-site.guard';
import { IdTokenVerifier } from './sign-in/id-token.verifier';
import { OidcDiscovery } from './sign-in/oidc-discovery.service';
import { RoleGuard } from '../common/auth/role.guard';
import { SessionController } from './session/session.controller';
import { SessionGuard } from '../common/auth/session.guard';
import { SessionAuthenticator } from '../common/auth/session-authenticator';
import { SessionCookieAuthenticator } from './session/session-cookie.authenticator';
import { SessionModule } from './session/session.module';
import { SignInAudit } from './sign-in/sign-in-audit';
import { User } from './user.entity';

/**
 * Sign-in and sessions. Global, so any feature's controller can use `@Auth()` (common/auth)
 * without importing this module: its guards resolve `SessionAuthenticator`, provided here, from
 * this module's exports. Accounts are administered by users/.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    AuditLogModule,
    AuditTrailModule,
    OrgModule,
    SessionModule,
  ],
  controllers: [AuthController, SessionController],
  providers: [
    AuthBootstrapService,
    AuthService,
    IdTokenVerifier,
    OidcDiscovery,
    SignInAudit,
    CrossSiteGuard,
    SessionGuard,
    RoleGuard,
    { provide: SessionAuthenticator, useClass: SessionCookieAuthenticator },
  ],
  exports: [
    SessionModule,
    SessionAuthenticator,
    CrossSiteGuard,
    SessionGuard,
    RoleGuard,
    OidcDiscovery,
  ],
})
export class AuthModule {}
