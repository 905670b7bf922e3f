import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  HttpStatus,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, RateLimitConfig } from '../../config/app-config';
import { AppException } from '../errors/app.exception';
import { ErrorCode } from '../errors/error-code.enum';
import { RateLimitService } from './rate-limit.service';

export type RateLimitPolicy = keyof RateLimitConfig;
/** What a limit counts by: the client address (as Fastify resolves it under TRUST_PROXY) or a body field. */
export type RateLimitKey = 'ip' | `body.${string}`;

interface RateLimitRule {
  policy: RateLimitPolicy;
  keys: RateLimitKey[];
}

const RATE_LIMIT = Symbol('rate-limit');
const WINDOW_MS = 60_000;

/** Limits a route to the policy's allowance per minute, counted separately for each key. */
export function RateLimit(policy: RateLimitPolicy, keys: RateLimitKey[] = ['ip']) {
  return applyDecorators(
    SetMetadata(RATE_LIMIT, { policy, keys } satisfies RateLimitRule),
    UseGuards(RateLimitGuard),
    ApiTooManyRequestsResponse({ description: 'Rate limited; see Retry-After' }),
  );
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<RateLimitRule | undefined>(RATE_LIMIT, context.getHandler());
    if (!rule) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const res = context.switchToHttp().getResponse<FastifyReply>();
    const limit = this.config.rateLimits[rule.policy];
    for (const key of rule.keys) {
      const tracker = this.trackerFor(req, key);
      if (tracker === undefined) continue;
      const record = await this.limits.hit(`${rule.policy}:${key}`, tracker, limit, WINDOW_MS);
      if (!record) continue;
      void res.header('RateLimit-Limit', String(limit));
      void res.header('RateLimit-Remaining', String(Math.max(0, limit - record.totalHits)));
      if (record.isBlocked) {
        const retryAfter = String(Math.max(1, Math.ceil(record.timeToBlockExpire)));
        throw new AppException(
          ErrorCode.RateLimited,
          HttpStatus.TOO_MANY_REQUESTS,
          `Too many requests; try again in ${retryAfter} seconds.`,
          undefined,
          { 'Retry-After': retryAfter },
        );
      }
    }
    return true;
  }

  private trackerFor(req: FastifyRequest, key: RateLimitKey): string | undefined {
    if (key === 'ip') return req.ip || 'unknown';
    const body: unknown = req.body;
    const value =
      typeof body === 'object' && body !== null
        ? (body as Record<string, unknown>)[key.slice('body.'.length)]
        : undefined;
    return typeof value === 'string' && value.length > 0 ? value.slice(0, 256) : undefined;
  }
}
