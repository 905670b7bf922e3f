import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEvent } from './audit-event.entity';
import { AuditEvents } from './audit-events.service';
import { AuditTrailModule } from './audit-trail.module';
import { AuditVerifier } from './audit-verifier.service';

/** The trail as it is read (the list, `audit:verify`, `audit:head`): what the CLI and the API run on. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), AuditTrailModule],
  providers: [AuditEvents, AuditVerifier],
  exports: [AuditEvents, AuditVerifier, AuditTrailModule],
})
export class AuditModule {}
