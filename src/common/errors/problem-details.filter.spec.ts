import { ArgumentsHost, ForbiddenException, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DomainError } from './domain.error';
import { ErrorCode } from './error-code.enum';
import { ProblemDetailsFilter } from './problem-details.filter';

function capture(exception: unknown) {
  const sent: { status?: number; type?: string; body?: string; headers?: Record<string, string> } =
    {};
  const res = {};
  // The HTTP adapter methods the filter uses, recording what it writes.
  const httpAdapter = {
    isHeadersSent: () => false,
    setHeader: (_res: unknown, name: string, value: string) => {
      if (name === 'Content-Type') sent.type = value;
      else sent.headers = { ...sent.headers, [name]: value };
    },
    reply: (_res: unknown, body: string, status: number) => {
      sent.body = body;
      sent.status = status;
    },
  };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getResponse: () => res }),
  } as unknown as ArgumentsHost;
  new ProblemDetailsFilter({ httpAdapter } as unknown as HttpAdapterHost).catch(exception, host);
  return { ...sent, json: JSON.parse(sent.body ?? '{}') as Record<string, unknown> };
}

describe('ProblemDetailsFilter', () => {
  // What the filter logs, captured here and asserted where a test provokes it.
  let warned: jest.SpyInstance;
  let logged: jest.SpyInstance;
  beforeEach(() => {
    warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('renders a DomainError with the status of its code, its errors and headers', () => {
    const out = capture(
      new DomainError(ErrorCode.RateLimited, 'slow down', undefined, { 'Retry-After': '3' }),
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
    expect(warned).toHaveBeenCalledWith('Database unavailable: Error: connect ECONNREFUSED');
    expect(logged).not.toHaveBeenCalled();
  });

  it("answers a platform middleware's client errors with fixed details, no other with a status", () => {
    const exposed = Object.assign(new Error('echoes <input>'), { status: 413, expose: true });
    expect(capture(exposed).json).toMatchObject({
      status: 413,
      code: 'payload_too_large',
      detail: 'The request body is too large.',
    });
    const unreadable = Object.assign(new Error('Unexpected token <'), {
      status: 400,
      expose: true,
    });
    expect(capture(unreadable).json).toMatchObject({ detail: 'The request could not be read.' });
    expect(capture(exposed).body).not.toContain('<input>');
    // An SDK's error with a status is a fault of ours, not the client's.
    const sdk = Object.assign(new Error('No such price'), { statusCode: 400, status: 400 });
    expect(capture(sdk).status).toBe(500);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^Error: No such price\n/));
  });

  it('never leaks the message of an unknown error', () => {
    const out = capture(new Error('SELECT password FROM users'));
    expect(out.status).toBe(500);
    expect(out.body).not.toMatch(/SELECT|password/);
    // The operator gets it in the log, with its stack.
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(
      expect.stringMatching(/^Error: SELECT password FROM users\n\s+at /),
    );
  });
});
