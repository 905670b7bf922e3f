import { ArgumentsHost, ForbiddenException, NotFoundException } from '@nestjs/common';
import { AppException } from './app.exception';
import { ErrorCode } from './error-code.enum';
import { ProblemDetailsFilter } from './problem-details.filter';

function capture(exception: unknown) {
  const sent: { status?: number; type?: string; body?: string; headers?: Record<string, string> } =
    {};
  // The FastifyReply methods the filter uses.
  const res = {
    sent: false,
    headers: (h: Record<string, string>) => ((sent.headers = h), res),
    status: (s: number) => ((sent.status = s), res),
    type: (t: string) => ((sent.type = t), res),
    send: (b: string) => ((sent.body = b), res),
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new ProblemDetailsFilter().catch(exception, host);
  return { ...sent, json: JSON.parse(sent.body ?? '{}') as Record<string, unknown> };
}

describe('ProblemDetailsFilter', () => {
  it('renders an AppException with its code, errors and headers', () => {
    const out = capture(
      new AppException(ErrorCode.RateLimited, 429, 'slow down', undefined, { 'Retry-After': '3' }),
    );
    expect(out.status).toBe(429);
    expect(out.type).toBe('application/problem+json');
    expect(out.headers).toEqual({ 'Retry-After': '3' });
    expect(out.json).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      code: 'rate_limited',
      detail: 'slow down',
    });
  });

  it('maps Nest HTTP exceptions to a code by status', () => {
    expect(capture(new NotFoundException()).json.code).toBe('not_found');
    expect(capture(new ForbiddenException()).json.code).toBe('forbidden');
  });

  it('answers 503 unavailable when the database cannot be reached', () => {
    const out = capture(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(out.status).toBe(503);
    expect(out.json.code).toBe('unavailable');
  });

  it('never leaks the message of an unknown error', () => {
    const out = capture(new Error('SELECT password FROM users'));
    expect(out.status).toBe(500);
    expect(out.body).not.toMatch(/SELECT|password/);
  });
});
