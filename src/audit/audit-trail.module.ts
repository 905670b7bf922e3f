import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PersonalDataModule } from '../personal-data/personal-data.module';
import { AuditChainStart } from './audit-chain-start.entity';
import { AuditChainStarts } from './audit-chain-starts.service';
import { AuditEvent } from './audit-event.entity';
import { auditPruning } from './audit-pruning.service';
import { AuditTrail } from './audit-trail.service';

/**
 * The audit trail's writer (and its pruning): a feature that writes audit events imports this.
 * The links are keyed with the audit key that DataKeyring holds.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent, AuditChainStart]), PersonalDataModule],
  providers: [AuditTrail, AuditChainStarts, ...auditPruning()],
  exports: [AuditTrail, AuditChainStarts],
})
export class AuditTrailModule {}
