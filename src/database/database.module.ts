import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { bootStep } from '../common/errors/boot.error';
import { AppConfig } from '../config/app-config';
import { ClockTimestamps } from './clock-timestamps.subscriber';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedPostgres } from './embedded/embedded-postgres';
import { HousekeepingModule } from './housekeeping.module';
import { runMigrationsLocked } from './migrate';
import { assertDriverPool } from './statement-rows';

/**
 * The setting a failed connection points at, for the boot's line. Set by the options factory
 * just before TypeORM calls the data-source factory, which is given no configuration of its own.
 */
let databaseSetting = 'DATABASE_URL';

@Module({ providers: [EmbeddedPostgres], exports: [EmbeddedPostgres] })
class EmbeddedPostgresModule {}

/**
 * TypeORM on `pg`: a PostgreSQL server when DATABASE_URL is set, otherwise the embedded PGlite.
 * Migrations run at boot, before the first request is served. Housekeeping (global) deletes what
 * the features' retention rules say is old enough.
 */
@Module({
  imports: [
    HousekeepingModule,
    TypeOrmModule.forRootAsync({
      imports: [EmbeddedPostgresModule],
      inject: [AppConfig, EmbeddedPostgres],
      useFactory: async (config: AppConfig, embedded: EmbeddedPostgres) => {
        databaseSetting = config.databaseUrl ? 'DATABASE_URL' : 'PGLITE_DATA_DIR';
        return {
          ...(config.databaseUrl
            ? dataSourceOptions(config, config.databaseUrl)
            : dataSourceOptions(
                config,
                await bootStep('the embedded database', ['PGLITE_DATA_DIR'], () =>
                  embedded.start(),
                ),
                true,
              )),
          autoLoadEntities: true,
          // Boot fails fast with the driver's message rather than retrying for half a minute.
          retryAttempts: 2,
          retryDelay: 1000,
        };
      },
      dataSourceFactory: (options) =>
        // The URL may hold a password: the line names the setting, never its value.
        bootStep('the database', [databaseSetting], async () => {
          if (!options) throw new Error('No database options');
          const dataSource = await new DataSource(options).initialize();
          assertDriverPool(dataSource);
          await runMigrationsLocked(dataSource);
          return dataSource;
        }),
    }),
  ],
  providers: [ClockTimestamps],
})
export class DatabaseModule {}
