import { earlyDatabaseEnv } from '../config/early-database-env';
import { SPARE_CONNECTIONS, startEarly } from './embedded-postgres.server';

/**
 * Imported first by main.ts, for its effect: without DATABASE_URL, starts the embedded database's
 * worker before the rest of the app loads, so PGlite's startup (~0.5 s) runs beside the module
 * loading (~0.7 s) instead of after it. EmbeddedPostgres takes it over.
 */
const env = earlyDatabaseEnv();
if (env) startEarly(env.pgliteDataDir, env.databasePoolSize + SPARE_CONNECTIONS);
