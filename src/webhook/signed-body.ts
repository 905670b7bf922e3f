import { MAX_JSON_DEPTH, nestedDeeperThan } from '../common/http/body-parsers';
import { cleanAllText } from '../common/validation/storable-text';

export type SignedBody = { value: unknown } | { problem: string };

/**
 * A verified body, read under the limits public JSON has: not JSON or nested deeper than
 * MAX_JSON_DEPTH is a problem (a 400 the caller logs); otherwise a cleaned copy, without NUL,
 * lone surrogates or keys that reach a prototype (see cleanAllText), since a signed event is
 * the processor's word and is stored cleaned rather than refused.
 */
export function readSignedBody(raw: Buffer): SignedBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return { problem: 'The signed body is not valid JSON.' };
  }
  if (nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
    return { problem: 'The signed body is nested too deeply.' };
  }
  return { value: cleanAllText(parsed) };
}
