import { loadAppConfig } from '../../config/load-env';
import { startEarly } from './embedded-postgres.server';

/**
 * Without DATABASE_URL, starts the embedded database's worker before the rest of the app loads,
 * so PGlite's startup (~0.5 s) runs beside the module loading (~0.7 s) instead of after it.
 * EmbeddedPostgres takes it over. The settings are the validated ones the config module gets; a
 * bad one is reported by the boot, not here.
 */
export function startEmbeddedEarly(): void {
  let config;
  try {
    config = loadAppConfig();
  } catch {
    return; // the boot's loadAppConfig() throws it again and reports it in one line
  }
  if (!config.databaseUrl) startEarly(config.pgliteDataDir);
}
