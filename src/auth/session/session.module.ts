import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogModule } from '../../common/logging/audit-log.module';
import { AuditTrailModule } from '../../audit/audit-trail.module';
import { retention } from '../../database/housekeeping.module';
import { Session } from './session.entity';
import { SESSION_RETENTION } from './session-retention';
import { SessionService } from './session.service';
import { UserSessionsService } from './user-sessions.service';

/**
 * Sessions without sign-in or HTTP: what sign-in, its guards, the session routes and account
 * administration (which revokes a disabled account's sessions, also from the command line) share.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Session]), AuditLogModule, AuditTrailModule],
  providers: [SessionService, UserSessionsService, retention(SESSION_RETENTION)],
  exports: [SessionService, UserSessionsService],
})
export class SessionModule {}
