import { BootError } from '../errors/boot.error';
import { ConfigError } from '../../config/env.validation';
import { describeBootFailure, reportBootFailure } from './boot-failure';

describe('boot failure line', () => {
  it('names every setting of a configuration error', () => {
    const failure = describeBootFailure(
      new ConfigError(['OIDC_AUDIENCE: must be set', 'PORT: must not be greater than 65535']),
    );
    expect(failure.settings).toEqual(['OIDC_AUDIENCE', 'PORT']);
    expect(failure.msg).toBe(
      'boot failed: invalid configuration: OIDC_AUDIENCE: must be set; PORT: must not be greater than 65535',
    );
  });

  it('names the resource and its settings, with the cause but no stack', () => {
    const failure = describeBootFailure(
      new BootError('the HTTP port', ['HOST', 'PORT'], new Error('listen EADDRINUSE')),
    );
    expect(failure).toEqual({
      msg: 'boot failed: the HTTP port: listen EADDRINUSE (check HOST, PORT)',
      resource: 'the HTTP port',
      settings: ['HOST', 'PORT'],
    });
  });

  it('is one readable line with LOG_PRETTY, and JSON without', () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      reportBootFailure(new ConfigError(['PORT: bad']), { LOG_PRETTY: 'true' });
    } finally {
      spy.mockRestore();
    }
    expect(written).toEqual([
      'FATAL (Boot): boot failed: invalid configuration: PORT: bad [PORT]\n',
    ]);
  });
});
