/**
 * The /health yardstick: a bare Nest app (the service's Fastify adapter, no middleware, no logger) answering
 * /health with the same database ping and body as the service, on a pool of the same size.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Pool } from 'pg';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

@Controller('health')
class HealthController {
  @Get()
  async check(): Promise<object> {
    await pool.query('SELECT 1');
    return { status: 'ok', checks: { database: 'up' }, version: '0.1.0' };
  }
}

@Module({ controllers: [HealthController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BareModule, new FastifyAdapter(), {
    logger: false,
    bodyParser: false,
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
