import { loadAppConfig } from '../config/config.module';
import { startEmbeddedPostgresEarly } from './embedded-postgres';

/**
 * Imported first by main.ts, for its effect: starts the embedded database's worker before the rest
 * of the app is loaded, so PGlite's startup (~0.5 s) runs beside the module loading, not after it.
 */
try {
  startEmbeddedPostgresEarly(loadAppConfig());
} catch {
  // An invalid configuration: bootstrap() meets the same error and reports it in one line.
}
