import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedPostgres } from './embedded-postgres';
import { runMigrationsLocked } from './migrate';

@Module({ providers: [EmbeddedPostgres], exports: [EmbeddedPostgres] })
class EmbeddedPostgresModule {}

/**
 * TypeORM on `pg`: a PostgreSQL server when DATABASE_URL is set, otherwise the embedded PGlite.
 * Migrations run at boot, before the first request is served.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [EmbeddedPostgresModule],
      inject: [AppConfig, EmbeddedPostgres],
      useFactory: async (config: AppConfig, embedded: EmbeddedPostgres) => ({
        ...(config.databaseUrl
          ? dataSourceOptions(config, config.databaseUrl)
          : dataSourceOptions(config, await embedded.start(), true)),
        autoLoadEntities: true,
        // Boot fails fast with the driver's message rather than retrying for half a minute.
        retryAttempts: 2,
        retryDelay: 1000,
      }),
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('No database options');
        const dataSource = await new DataSource(options).initialize();
        await runMigrationsLocked(dataSource);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
