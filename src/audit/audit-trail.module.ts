import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEvent } from './audit-event.entity';
import { auditRetention } from './audit-retention';
import { AuditTrail } from './audit-trail.service';

/** The audit trail's writer (and its retention): a feature that writes audit events imports this. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  providers: [AuditTrail, auditRetention()],
  exports: [AuditTrail],
})
export class AuditTrailModule {}
