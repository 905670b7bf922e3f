import { startEmbeddedEarly } from './embedded-postgres.early-start';

/** Imported first by main.ts, for its effect: the embedded database starts while the app loads. */
startEmbeddedEarly();
