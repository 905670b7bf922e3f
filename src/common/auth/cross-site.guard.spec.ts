import type { ExecutionContext } from '@nestjs/common';
import { DomainError } from '../errors/domain.error';
import { statusOf } from '../errors/error-code.enum';
import type { HttpRequest } from '../http/http-request';
import { AppConfig } from '../../config/app-config';
import { CrossSiteGuard } from './cross-site.guard';

function context(method: string, headers: Record<string, string>): ExecutionContext {
  const req = { method, headers } as unknown as HttpRequest;
  return { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}

describe('CrossSiteGuard', () => {
  const guard = new CrossSiteGuard(AppConfig.fromEnv({ CORS_ORIGINS: 'https://app.example.com' }));
  const status = (method: string, headers: Record<string, string>) => {
    try {
      return guard.canActivate(context(method, headers)) ? 200 : 0;
    } catch (err) {
      return statusOf((err as DomainError).code);
    }
  };

  it('lets reads through whatever their origin', () => {
    expect(status('GET', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).toBe(
      200,
    );
  });

  it('lets same-origin JSON and header-less clients change state', () => {
    expect(status('POST', { origin: 'https://app.example.com' })).toBe(200);
    expect(status('POST', { 'content-type': 'application/json' })).toBe(200);
    expect(status('PATCH', { 'sec-fetch-site': 'same-site' })).toBe(200);
  });

  it('refuses a foreign origin or a cross-site fetch with 403, and other bodies with 415', () => {
    expect(status('POST', { origin: 'https://evil.example' })).toBe(403);
    expect(status('DELETE', { 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(status('POST', { origin: 'null' })).toBe(403);
    expect(status('POST', { 'content-type': 'text/plain' })).toBe(415);
  });
});
