import { createServer, Server, Socket, connect } from 'node:net';
import { join } from 'node:path';

/** Where the proxy forwards: a TCP address, or a Unix socket (the embedded database's). */
export type ProxyTarget = { host: string; port: number } | { path: string };

/**
 * A TCP proxy on 127.0.0.1 that a test can cut and restore, to take a dependency away from a
 * running app without stopping the shared server.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private open = true;
  private stalled = false;
  port = 0;

  constructor(private readonly target: ProxyTarget) {}

  /** A proxy to the database a `pg` URL names; `?host=/dir` is a Unix socket, as pg reads it. */
  static toDatabase(url: string): TcpProxy {
    const u = new URL(url);
    const dir = u.searchParams.get('host');
    const port = Number(u.port || 5432);
    if (dir?.startsWith('/')) return new TcpProxy({ path: join(dir, `.s.PGSQL.${port}`) });
    return new TcpProxy({ host: u.hostname, port });
  }

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  private accept(client: Socket): void {
    if (!this.open) return void client.destroy();
    const upstream = connect(this.target);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
    if (this.stalled) for (const s of [client, upstream]) s.pause();
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /** Drops every open connection and refuses new ones, as a dead network would. */
  cut(): void {
    this.open = false;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.open = true;
  }

  /**
   * Holds every byte in both directions, on open connections and new ones, until `flow()`: a
   * dependency that is there but does not answer (connections open, commands time out).
   */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) s.pause();
  }

  flow(): void {
    this.stalled = false;
    for (const s of this.sockets) s.resume();
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  /** The same URL with its host and port pointed through this proxy. */
  static via(url: string, proxy: TcpProxy): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(proxy.port);
    u.searchParams.delete('host');
    return u.toString();
  }
}
