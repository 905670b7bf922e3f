import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionModule } from '../auth/session/session.module';
import { User } from '../auth/user.entity';
import { AuditLogModule } from '../common/logging/audit-log.module';
import { AuditTrailModule } from '../audit/audit-trail.module';
import { OrgModule } from '../org/org.module';
import { UserService } from './user.service';

/** Account administration without HTTP: what the routes and the command line use. */
@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    AuditLogModule,
    AuditTrailModule,
    OrgModule,
    SessionModule,
  ],
  providers: [UserService],
  exports: [UserService],
})
export class UserModule {}
