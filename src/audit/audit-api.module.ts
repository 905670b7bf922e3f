import { Module } from '@nestjs/common';
import { AuditCheckpointScheduler } from './audit-checkpoint.scheduler';
import { AuditController } from './audit.controller';
import { AuditModule } from './audit.module';

/** The server's part: the admins' route and the logged checkpoints (the CLI runs no timers). */
@Module({
  imports: [AuditModule],
  controllers: [AuditController],
  providers: [AuditCheckpointScheduler],
})
export class AuditApiModule {}
