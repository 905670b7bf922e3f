/**
 * The master key of every test app, spawned server and CLI run unless a spec sets its own (on a
 * database of its own): a worker's specs share one database, and a boot must match its key check.
 */
export const TEST_DATA_KEY = Buffer.alloc(32, 7).toString('base64');
