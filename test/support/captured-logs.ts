import { Writable } from 'node:stream';
import { PARAMS_PROVIDER_TOKEN, Params } from 'nestjs-pino';
import { loggerOptions } from '../../src/common/logging/logger.options';
import { testConfig, TestAppOptions } from './test-app';

/**
 * Every pino line the app writes (requests and application logs) at trace level, with the app's
 * own logger options (so its redaction), into `lines` instead of stdout.
 */
export function capturedLogs(env: Record<string, string> = {}): {
  lines: string[];
  options: Required<Pick<TestAppOptions, 'env' | 'override'>>;
} {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const traceEnv = { ...env, LOG_LEVEL: 'trace' };
  // As in production, but into the sink: the app's access-log middleware writes the lines.
  const params: Params = loggerOptions(testConfig(traceEnv), false, sink);
  return {
    lines,
    options: {
      env: traceEnv,
      override: (b) => b.overrideProvider(PARAMS_PROVIDER_TOKEN).useValue(params),
    },
  };
}

/** A parsed log line. */
export type LogLine = Record<string, unknown>;

export interface WaitOptions {
  /** The index in `lines` to read from (`lines.length` before the request). */
  from?: number;
  withinMs?: number;
}

/**
 * The lines written since `from`, parsed, once `done` says they are all there: a test waits for
 * the line it expects instead of sleeping. Fails after `withinMs`, showing what was written.
 */
export async function waitForLines<T extends object = LogLine>(
  lines: readonly string[],
  done: (written: T[]) => boolean,
  { from = 0, withinMs = 5000 }: WaitOptions = {},
): Promise<T[]> {
  const started = Date.now();
  for (;;) {
    const written = lines.slice(from).map((l) => JSON.parse(l) as T);
    if (done(written)) return written;
    if (Date.now() - started > withinMs) {
      throw new Error(
        `the expected log line did not come in ${withinMs} ms: ${lines.slice(from).join('')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The lines written since `from` once one of them matches. */
export function waitForLine<T extends object = LogLine>(
  lines: readonly string[],
  match: (line: T) => boolean,
  options?: WaitOptions,
): Promise<T[]> {
  return waitForLines<T>(lines, (written) => written.some(match), options);
}

/**
 * pino-http's access line, written as the response finishes, which may be just after the client
 * has read it; a request's other lines (audit, application) come before it.
 */
export function isAccessLine(line: object): boolean {
  return 'responseTime' in line;
}

/** The lines written since `from` once the access line of the request `requestId` is there. */
export function waitForAccessLine<T extends object = LogLine>(
  lines: readonly string[],
  requestId?: string,
  options?: WaitOptions,
): Promise<T[]> {
  return waitForLine<T>(
    lines,
    (l) =>
      isAccessLine(l) &&
      (requestId === undefined || (l as { req?: { id?: unknown } }).req?.id === requestId),
    options,
  );
}
