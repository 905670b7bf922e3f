import pino, { DestinationStream } from 'pino';

/**
 * Bytes gathered before one write(2): about a dozen access lines. A write per line was 11.7 % of a
 * webhook's CPU (docs/decisions/0007-buffered-logs.md); under load this is one write per few
 * milliseconds of lines.
 */
const LOG_BUFFER_BYTES = 4096;

/**
 * The longest a line waits in the buffer when few are written: whoever tails the log sees it
 * within a tenth of a second, and a crash at low traffic loses at most that much. sonic-boom's
 * own timer (`periodicFlush`): a tick with nothing buffered costs an empty write(2).
 */
const LOG_FLUSH_INTERVAL_MS = 100;

type SonicBoom = ReturnType<typeof pino.destination>;

let stdout: SonicBoom | undefined;

/**
 * The server's log lines on stdout, through one buffer shared by the access log and the
 * application's logs (so their lines keep their order): pino's asynchronous destination
 * (sonic-boom), written when it holds LOG_BUFFER_BYTES, on its timer, and synchronously on the way
 * out (every `process.exit`, and a fatal error: see flushLogsSync). Made on first use.
 */
export function serverLogDestination(): DestinationStream {
  if (stdout) return stdout;
  const out = pino.destination({
    dest: 1,
    minLength: LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    sync: false,
  });
  // The end of the SIGTERM path, its deadline, a second signal, a failed boot: all process.exit.
  process.once('exit', flushLogsSync);
  stdout = out;
  return out;
}

/** Writes out whatever is buffered, now; for the paths that end the process. */
export function flushLogsSync(): void {
  try {
    stdout?.flushSync();
  } catch {
    // stdout is gone (a closed pipe): nothing more can be written anywhere.
  }
}
