import { isDatabaseUnavailable } from './database-errors';

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string) => Object.assign(new Error('x'), { code });

  it.each(['ECONNREFUSED', 'ECONNRESET', '08006', '08001', '57P01'])('is true for %s', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it('sees through TypeORM driverError wrappers and pool timeouts', () => {
    expect(isDatabaseUnavailable({ driverError: withCode('ECONNREFUSED') })).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is false for query errors and ordinary failures', () => {
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false); // unique violation
    expect(isDatabaseUnavailable(withCode('22P02'))).toBe(false); // bad input syntax
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
