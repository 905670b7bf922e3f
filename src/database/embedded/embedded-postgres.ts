import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { EmbeddedPostgresServer, takeEarly } from './embedded-postgres.server';

/**
 * The embedded database (embedded-postgres.server.ts) as a Nest provider. Started only when
 * DATABASE_URL is unset; takes over the server main.ts started early on the same data directory.
 */
@Injectable()
export class EmbeddedPostgres implements OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddedPostgres');
  private server?: EmbeddedPostgresServer;
  private url?: string;

  constructor(private readonly config: AppConfig) {}

  async start(): Promise<string> {
    if (this.url) return this.url;
    if (!this.server) {
      const { pgliteDataDir } = this.config;
      const server = (await takeEarly(pgliteDataDir)) ?? new EmbeddedPostgresServer(pgliteDataDir);
      server.onFailure = (message) => this.logger.error(message);
      this.server = server;
    }
    const server = this.server;
    const url = await server.start();
    if (!this.url) {
      this.url = url;
      this.logger.log(
        `Embedded PostgreSQL (PGlite) on the Unix socket in ${server.socketDir}, data in ${this.config.pgliteDataDir}`,
      );
    }
    return url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    await server?.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
