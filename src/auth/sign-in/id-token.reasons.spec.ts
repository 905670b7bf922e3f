import { errors } from 'jose';
import { reasonFor } from './id-token.reasons';

describe('reasonFor', () => {
  const claim = (name: string, reason: string) =>
    new errors.JWTClaimValidationFailed('x', {}, name, reason);

  it.each([
    [new errors.JWTExpired('x', {}, 'exp', 'check_failed'), 'expired'],
    [new errors.JWTExpired('x', {}, 'iat', 'check_failed'), 'expired'],
    [claim('iss', 'check_failed'), 'unknown_issuer'],
    [claim('aud', 'check_failed'), 'wrong_audience'],
    [claim('nbf', 'check_failed'), 'not_yet_valid'],
    [claim('iat', 'check_failed'), 'not_yet_valid'],
    [claim('sub', 'missing'), 'missing_claim'],
    [claim('exp', 'invalid'), 'malformed'],
    [new errors.JOSEAlgNotAllowed('x'), 'algorithm_not_allowed'],
    [new errors.JWKSNoMatchingKey(), 'unknown_key'],
    [new errors.JWSSignatureVerificationFailed(), 'bad_signature'],
    [new errors.JWSInvalid('x'), 'malformed'],
    [new errors.JWTInvalid('x'), 'malformed'],
    [new errors.JOSENotSupported('x'), 'malformed'],
  ])('%s is %s', (err, reason) => {
    expect(reasonFor(err)).toBe(reason);
  });

  it.each([
    ['a JWKS timeout', new errors.JWKSTimeout()],
    ['a JWKS that is not one', new errors.JWKSInvalid('x')],
    ['a non-200 JWKS answer', new errors.JOSEError('Expected 200 OK')],
    ['a network error', new TypeError('fetch failed')],
    ['anything else', 'boom'],
  ])('%s is provider_unavailable, never a verdict on the token', (_name, err) => {
    expect(reasonFor(err)).toBe('provider_unavailable');
  });
});
