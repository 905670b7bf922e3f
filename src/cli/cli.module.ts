import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockModule } from '../common/clock/clock.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { CliNeeds } from './cli-command';

/**
 * One command's own module: the configuration, the database, the clock, and only what the command
 * names in its `needs`, never the whole application (no HTTP, no guards, no schedulers), so a
 * command starts in a fraction of the server's boot.
 */
@Module({})
export class CliModule {
  static for(needs: CliNeeds): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule,
        DatabaseModule,
        ClockModule,
        TypeOrmModule.forFeature(needs.entities ?? []),
        ...(needs.imports ?? []),
      ],
      providers: needs.providers ?? [],
    };
  }
}
