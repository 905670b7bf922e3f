import { BearerToken } from './bearer-token';

describe('BearerToken', () => {
  const token = new BearerToken('s3cret-token');

  it('takes the scheme in any case', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect(token.matches(`${scheme} s3cret-token`)).toBe(true);
    }
  });

  it('refuses another token, another length, another scheme or none', () => {
    for (const header of [
      'Bearer s3cret-tokex',
      'Bearer s3cret',
      'Bearer s3cret-token-longer',
      'Basic s3cret-token',
      's3cret-token',
      'Bearer ',
      '',
      undefined,
    ]) {
      expect(token.matches(header)).toBe(false);
    }
  });
});
