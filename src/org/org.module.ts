import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organization } from './organization.entity';
import { OrgService } from './org.service';
import { AuditTrailModule } from '../audit/audit-trail.module';

/** Organizations without HTTP: what other features and the command line use. */
@Module({
  imports: [TypeOrmModule.forFeature([Organization]), AuditTrailModule],
  providers: [OrgService],
  exports: [OrgService],
})
export class OrgModule {}
