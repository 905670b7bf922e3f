import { MAX_JSON_DEPTH, nestedDeeperThan } from '../common/http/body-parsers';
import { parsesToStorableText } from '../common/validation/storable-json-text';
import { cleanAllText } from '../common/validation/storable-text';

export type SignedBody = { value: unknown } | { problem: string };

/**
 * A verified body, read under the limits public JSON has: not JSON or nested deeper than
 * MAX_JSON_DEPTH is a problem (a 400 the caller logs); otherwise a cleaned copy, without NUL,
 * lone surrogates or keys that reach a prototype (see cleanAllText), since a signed event is
 * the processor's word and is stored cleaned rather than refused. Nearly every event is clean,
 * which its text proves in a few scans (parsesToStorableText): then the parsed value is the copy.
 */
export function readSignedBody(raw: Buffer): SignedBody {
  const text = raw.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'The signed body is not valid JSON.' };
  }
  if (!opensAtMost(text, MAX_JSON_DEPTH) && nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
    return { problem: 'The signed body is nested too deeply.' };
  }
  return { value: parsesToStorableText(text) ? parsed : cleanAllText(parsed) };
}

/**
 * True when the text has at most `max` of `{` and `[` in all (in strings too): then nothing in it
 * can nest deeper than `max`, and the walk of the parsed value is not needed (an event has ~20).
 */
function opensAtMost(text: string, max: number): boolean {
  let opened = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++opened > max) return false;
    }
  }
  return true;
}
