// Preload for profiling: exit normally on SIGTERM so `node --cpu-prof` writes its profile
// (Nest's shutdown hook re-raises the signal, which would end the process without one).
process.once('SIGTERM', () => process.exit(0));
