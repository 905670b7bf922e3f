import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/** The one provider of `AuditLog`: a feature that writes audit lines imports this module. */
@Module({ providers: [AuditLog], exports: [AuditLog] })
export class AuditLogModule {}
