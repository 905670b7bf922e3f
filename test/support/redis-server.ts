import { ChildProcess, spawn, spawnSync } from 'node:child_process';

/** Whether this machine has a redis-server to start (CI does; specs that need one skip otherwise). */
export function redisServerAvailable(): boolean {
  return !spawnSync('redis-server', ['--version']).error;
}

/** A throwaway redis-server of the spec's own, no persistence; the shared one is never touched. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (/Ready to accept connections/i.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return child;
}

/** SIGKILL by default: a crash, the connection dropped without a goodbye. */
export async function stopRedis(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
