import { CliCommand } from '../common/cli/cli-command';
import { AuditEvents } from './audit-events.service';
import { AuditModule } from './audit.module';

export const auditCommands: Record<string, CliCommand> = {
  'audit:verify': {
    summary: 'Walk the audit chain and check every event against the one before it',
    usage: 'audit:verify',
    options: {},
    module: AuditModule,
    prepare: () =>
      Promise.resolve(async (app) => {
        const result = await app.get(AuditEvents).verify();
        if (result.ok) return { verified: result.count };
        // The runner prints the message and exits 1.
        const why =
          result.reason === 'hash'
            ? 'its hash does not match its fields'
            : `its ${result.reason} does not follow the event before it`;
        throw new Error(
          `audit event id ${result.id} (seq ${result.seq}) does not match: ${why}; ${result.count} events before it verified`,
        );
      }),
  },
};
