import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { ErrorCode, statusOf } from './error-code.enum';
import { conflictFor, isDatabaseUnavailable, takenIn } from './database-errors';

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string) => Object.assign(new Error('x'), { code });

  it.each(['ECONNREFUSED', 'ECONNRESET', '08006', '08001', '57P01', '57014', '55P03', '53300'])(
    'is true for %s',
    (code) => {
      expect(isDatabaseUnavailable(withCode(code))).toBe(true);
    },
  );

  it('sees through TypeORM driverError wrappers and pool timeouts', () => {
    expect(isDatabaseUnavailable({ driverError: withCode('ECONNREFUSED') })).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is true for a query runner released under it, and for timeouts TypeORM wraps', () => {
    expect(isDatabaseUnavailable(new QueryRunnerAlreadyReleasedError())).toBe(true);
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    expect(isDatabaseUnavailable(new QueryFailedError('SELECT', [], timeout))).toBe(true);
  });

  it('is false for query errors and ordinary failures', () => {
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false); // unique violation
    expect(isDatabaseUnavailable(withCode('22P02'))).toBe(false); // bad input syntax
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('conflictFor', () => {
  const violation = (constraint?: string) =>
    new QueryFailedError(
      'INSERT …',
      [],
      Object.assign(new Error('duplicate key'), { code: '23505', constraint }),
    );

  it('maps the unique indexes clients act on to their own codes', () => {
    expect(conflictFor(violation('UQ_users_email'))?.code).toBe(ErrorCode.UserExists);
    expect(conflictFor(violation('UQ_devices_device_id'))?.code).toBe(ErrorCode.DeviceExists);
    // A shipping that lost the race for a device to the partial unique index (section 10).
    const held = conflictFor(violation('UQ_subscriptions_live_device'));
    expect(held).toMatchObject({ code: ErrorCode.Conflict, detail: expect.stringMatching(/live/) });
  });

  it('gives a check that finds the value taken first the words of the index violation', () => {
    for (const index of ['UQ_users_email', 'UQ_subscriptions_live_device'] as const) {
      expect(takenIn(index)).toEqual(conflictFor(violation(index)));
    }
  });

  it('maps any other unique violation to conflict, with a 409 and no SQL', () => {
    expect(conflictFor(violation('constructor'))?.detail).toBe('This value is already taken.');
    const err = conflictFor(violation('UQ_sessions_token_hash'));
    expect(err?.code).toBe(ErrorCode.Conflict);
    expect(err && statusOf(err.code)).toBe(409);
    expect(err?.detail).not.toMatch(/UQ_|INSERT/);
  });

  it('leaves every other error alone', () => {
    expect(conflictFor(new Error('x'))).toBeUndefined();
    expect(conflictFor(Object.assign(new Error('fk'), { code: '23503' }))).toBeUndefined();
  });
});
