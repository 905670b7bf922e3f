import { CliLogger } from './cli-logger';

describe('CliLogger', () => {
  it('writes audit lines and errors as the service’s JSON lines, and drops the rest', () => {
    const lines: string[] = [];
    const logger = new CliLogger({ write: (l: string) => lines.push(l) });
    logger.log(
      { audit: 'role_changed', actor: 'cli', user_id: 'u1', msg: 'role changed' },
      'Audit',
    );
    logger.log('Nest application started', 'NestApplication');
    logger.warn('DEVICE_TOKEN_SECRET is not set', 'Config');
    logger.error('failed', 'stack', 'Database');
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: 30,
        context: 'Audit',
        actor: 'cli',
        audit: 'role_changed',
        user_id: 'u1',
        msg: 'role changed',
      }),
      expect.objectContaining({ level: 50, context: 'Database', msg: 'failed' }),
    ]);
  });
});
