import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditModule } from './audit.module';

/** The server's part: the admins' route. */
@Module({ imports: [AuditModule], controllers: [AuditController] })
export class AuditApiModule {}
