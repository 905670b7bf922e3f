import { DynamicModule, Module, Type } from '@nestjs/common';
import { ClockModule } from '../common/clock/clock.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';

/**
 * One command's context: the configuration, the database, the clock and the command's feature
 * module, never the whole application (no HTTP, no guards, no schedulers), so a command starts in
 * a fraction of the server's boot.
 */
@Module({})
export class CliModule {
  static for(feature: Type): DynamicModule {
    return { module: CliModule, imports: [ConfigModule, DatabaseModule, ClockModule, feature] };
  }
}
