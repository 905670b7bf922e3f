import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EmbeddedPostgresServer, SPARE_CONNECTIONS, takeEarly } from './embedded-postgres.server';

/**
 * The embedded database (embedded-postgres.server.ts) as a Nest provider. Started only when
 * DATABASE_URL is unset; takes over the server main.ts started early when the settings agree.
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
      const { pgliteDataDir, databasePoolSize } = this.config;
      const maxConnections = databasePoolSize + SPARE_CONNECTIONS;
      const server =
        (await takeEarly(pgliteDataDir, maxConnections)) ??
        new EmbeddedPostgresServer(pgliteDataDir, maxConnections);
      server.onFailure = (message) => this.logger.error(message);
      this.server = server;
    }
    const url = await this.server.start();
    if (!this.url) {
      this.url = url;
      this.logger.log(
        `Embedded PostgreSQL (PGlite) on 127.0.0.1:${new URL(url).port}, data in ${this.config.pgliteDataDir}`,
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
