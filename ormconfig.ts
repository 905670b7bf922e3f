import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { loadAppConfig } from './src/config/load-env';
import { dataSourceOptions } from './src/database/data-source-options';
import { EmbeddedPostgres } from './src/database/embedded/embedded-postgres';

/** Stops the embedded server with the DataSource, or the CLI process would never exit. */
class EmbeddedDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    private readonly embedded: EmbeddedPostgres,
  ) {
    super(options);
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.embedded.stop();
  }
}

/**
 * The DataSource for the TypeORM CLI (`npm run migration:generate|run|revert`): the same options
 * as the app, on DATABASE_URL or, when it is unset, on the embedded database.
 */
async function createDataSource(): Promise<DataSource> {
  const config = loadAppConfig();
  const entities = [join(__dirname, 'src', '**', '*.entity.ts')];
  if (config.databaseUrl) {
    return new DataSource({ ...dataSourceOptions(config, config.databaseUrl), entities });
  }
  const embedded = new EmbeddedPostgres(config);
  const options = { ...dataSourceOptions(config, await embedded.start(), true), entities };
  return new EmbeddedDataSource(options, embedded);
}

export default createDataSource();
