import { DataSource } from 'typeorm';
import { runMigrationsLocked } from '../database/migrate';
import { CliCommand } from './cli-command';

export const dbCommands: Record<string, CliCommand> = {
  'db:migrate': {
    summary: 'Apply pending migrations (as the server does at boot), print which',
    usage: 'db:migrate',
    options: {},
    needs: { unmigrated: true },
    prepare: () =>
      Promise.resolve(async (app) => ({
        applied: await runMigrationsLocked(app.get(DataSource)),
      })),
  },
};
