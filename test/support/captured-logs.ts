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
