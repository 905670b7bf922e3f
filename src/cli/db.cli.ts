import { DatabaseModule } from '../database/database.module';
import { migrationsAppliedHere, migrationsUnknownHere } from '../database/migrate';
import { CliCommand } from '../common/cli/cli-command';

export const dbCommands: Record<string, CliCommand> = {
  'db:migrate': {
    summary:
      'Apply pending migrations (as the server does at boot), print which, and any the database holds that this release does not know',
    usage: 'db:migrate',
    options: {},
    // The database's boot applies them, under the same advisory lock as a server's boot.
    module: DatabaseModule,
    prepare: () => {
      const before = migrationsAppliedHere().length;
      return Promise.resolve(() =>
        Promise.resolve({
          applied: migrationsAppliedHere().slice(before),
          unknown: [...migrationsUnknownHere()],
        }),
      );
    },
  },
};
