import { AttemptLimits, failureOf } from './outgoing-webhook-http';

const limits = (over: Partial<Record<'deadline' | 'stop', boolean>> = {}): AttemptLimits => ({
  timeoutMs: 15_000,
  deadline: over.deadline ? AbortSignal.abort() : new AbortController().signal,
  stop: over.stop ? AbortSignal.abort() : new AbortController().signal,
});
const failed = (code: string, message = 'whatever the socket said, host names included') =>
  Object.assign(new Error(message), { code });

describe("a failed attempt's reason: the service's own short words", () => {
  it.each([
    ['ECONNREFUSED', 'connection_refused'],
    ['ECONNRESET', 'connection_reset'],
    ['EHOSTUNREACH', 'unreachable'],
    ['ETIMEDOUT', 'timeout'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['EWHATEVER', 'connection_failed'],
  ])('%s is %s', (code, reason) => {
    expect(failureOf(failed(code), limits())).toBe(reason);
  });

  it('is timeout past the deadline and aborted on shutdown, whatever the error', () => {
    expect(failureOf(failed('ECONNRESET'), limits({ deadline: true }))).toBe('timeout');
    expect(failureOf(failed('ECONNRESET'), limits({ stop: true }))).toBe('aborted');
  });

  it('never carries the error text: an error without a code is connection_failed', () => {
    expect(failureOf(new Error('zem@example.com said no'), limits())).toBe('connection_failed');
    expect(failureOf(null, limits())).toBe('connection_failed');
  });
});
