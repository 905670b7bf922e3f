import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** A node process that loads this folder's modules (under ts-node) and runs `script`. */
function run(script: string): { status: number | null; lines: string[] } {
  const out = spawnSync(
    process.execPath,
    ['-r', require.resolve('ts-node/register/transpile-only'), '-e', script],
    { cwd: __dirname, encoding: 'utf8', timeout: 60_000 },
  );
  return { status: out.status, lines: out.stdout.split('\n').filter(Boolean) };
}

const LOAD = `
  const { serverLogDestination } = require(${JSON.stringify(join(__dirname, 'log-destination'))});
  const { installFatalErrorLogging } = require(${JSON.stringify(join(__dirname, 'fatal-error'))});
  const out = serverLogDestination();
  const line = (msg) => out.write(JSON.stringify({ msg }) + '\\n');
`;

// Child processes under ts-node: seconds on a busy machine.
jest.setTimeout(60_000);

describe('the buffered log destination', () => {
  it('writes what it holds on the timer, without waiting for more', () => {
    const { lines } = run(
      `${LOAD} line('one'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 400);`,
    );
    expect(lines).toEqual(['{"msg":"one"}']);
  });

  it('writes what it holds on process.exit', () => {
    const { status, lines } = run(`${LOAD} line('one'); line('two'); process.exit(3);`);
    expect(status).toBe(3);
    expect(lines).toEqual(['{"msg":"one"}', '{"msg":"two"}']);
  });

  it('ends an unhandled rejection with its buffered lines, one fatal line, and status 1', () => {
    const { status, lines } = run(
      `${LOAD} installFatalErrorLogging({ level: 'info' }); line('before');
       setTimeout(() => Promise.reject(new Error('boom')), 10);`,
    );
    expect(status).toBe(1);
    expect(lines[0]).toBe('{"msg":"before"}');
    expect(JSON.parse(lines[1])).toMatchObject({
      level: 60,
      context: 'Process',
      origin: 'unhandledRejection',
      err: { message: 'boom' },
    });
    expect(lines).toHaveLength(2);
  });
});
