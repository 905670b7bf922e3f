/**
 * The bench's yardstick: a bare Nest app on Express (@nestjs/platform-express, the service's
 * platform) serving every measured endpoint with the handlers of reference-handlers.ts, so it runs the
 * same SQL and crypto as the service on a pool of the same size. Bare: no guards, pipes,
 * interceptors, filters, logging, CORS, cookies or security headers; the body is read raw, as
 * the handlers parse it themselves. Express's own settings are the service's (no X-Powered-By, no
 * ETag), so what the service costs beyond this app is what it adds on top of Nest and Express.
 */
import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import type { Request, Response } from 'express';
import { Handler, routes } from './reference-handlers';

async function answer(handler: Handler, req: Request, res: Response, body: unknown) {
  const url = new URL(req.originalUrl, 'http://bare-nest');
  const [status, payload] = await handler(req, Buffer.isBuffer(body) ? body : Buffer.alloc(0), url);
  res.status(status);
  return payload;
}

@Controller()
class BareController {
  @Get('health')
  health(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(routes['GET /health'], req, res, undefined);
  }

  @Get('api/auth/me')
  me(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(routes['GET /api/auth/me'], req, res, undefined);
  }

  @Get('api/v1/devices')
  devices(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(routes['GET /api/v1/devices'], req, res, undefined);
  }

  @Get('api/v1/subscriptions/:id')
  subscription(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return answer(routes['GET /api/v1/subscriptions/:id'], req, res, undefined);
  }

  @Post('auth/device')
  @HttpCode(200)
  deviceToken(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: unknown,
  ) {
    return answer(routes['POST /auth/device'], req, res, body);
  }

  @Post('api/device/v1/heartbeat')
  @HttpCode(204)
  heartbeat(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    return answer(routes['POST /api/device/v1/heartbeat'], req, res, body);
  }

  @Post('api/payment-processor/webhook')
  @HttpCode(200)
  webhook(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    return answer(routes['POST /api/payment-processor/webhook'], req, res, body);
  }

  @Post('api/lease/checkout')
  @HttpCode(200)
  checkout(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() body: unknown) {
    return answer(routes['POST /api/lease/checkout'], req, res, body);
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const instance = express();
  instance.disable('x-powered-by');
  instance.set('etag', false);
  const app = await NestFactory.create<NestExpressApplication>(
    BareModule,
    new ExpressAdapter(instance),
    { logger: false, bodyParser: false },
  );
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
