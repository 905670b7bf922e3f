import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 at this moment, for a server a spec starts itself. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * A port held on 127.0.0.1 until `release()`: for a server whose address others must know before
 * it can listen, so no other process takes the port in between (released just before listening).
 */
export async function heldPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, release: () => new Promise<void>((r) => server.close(() => r())) };
}
