import { constantFormPart, encodeFormText, formBody } from './form-body';

describe('encodeFormText and constantFormPart', () => {
  it('leaves plain text as it is and escapes the rest as the SDK does', () => {
    expect(encodeFormText('custom_fields[0][label][type]')).toBe('custom_fields[0][label][type]');
    expect(encodeFormText("Lives alone (it's *so*)!")).toBe(
      'Lives%20alone%20%28it%27s%20%2Aso%2A%29%21',
    );
    expect(encodeFormText('%5B[')).toBe('%255B[');
  });

  it('freezes a constant part all the way down, and refuses a Date in it', () => {
    const part = constantFormPart({ a: [{ b: 'c' }] });
    expect(Object.isFrozen(part.a[0])).toBe(true);
    expect(() => constantFormPart({ at: new Date() })).toThrow(/Date/);
  });

  it('encodes a constant part under each key it is sent under', () => {
    const part = constantFormPart([{ k: 'v w' }]);
    expect(formBody({ a: part, b: part })).toBe('a[0][k]=v%20w&b[0][k]=v%20w');
    expect(formBody({ a: part })).toBe('a[0][k]=v%20w');
    expect(formBody(null)).toBe('');
  });
});
