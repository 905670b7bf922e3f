import { PROTOTYPE_KEY_WORDS } from './prototype-keys';

const BACKSLASH = 0x5c;
const LOWER_U = 0x75;

const isLead = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isTrail = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
/** Letters and `_`: what the prototype words are spelled with. */
const spellsAWord = (unit: number) =>
  unit === 0x5f || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);

/** The code unit a `\uXXXX` escape at `at` stands for (NaN if it is not one). */
function escapedUnit(text: string, at: number): number {
  if (text.charCodeAt(at) !== BACKSLASH || text.charCodeAt(at + 1) !== LOWER_U) return NaN;
  const hex = text.slice(at + 2, at + 6);
  return /^[0-9A-Fa-f]{4}$/.test(hex) ? Number.parseInt(hex, 16) : NaN;
}

/**
 * True when `JSON.parse(text)`, for a `text` that parses, holds nothing `cleanAllText` would
 * change, proved by a few scans of the text instead of a walk of the parsed value (the webhook's
 * fast path: nearly every signed event is clean). A parsed string gets a NUL or a lone surrogate
 * from the text itself (JSON refuses a raw NUL; a decoder yields no lone surrogate, bad UTF-8
 * becomes U+FFFD, but the check is cheap) or from a `\u` escape: each escape is read, and an
 * escaped backslash (`\\u0000` is a backslash and text) skipped as the escape it is. A key the
 * prototype rule drops spells one of its words, so a text without them, and without a letter
 * spelled as an escape, has none. Anything else answers false: the walk decides.
 */
export function parsesToStorableText(text: string): boolean {
  if (text.includes('\0') || !text.isWellFormed()) return false;
  if (PROTOTYPE_KEY_WORDS.some((word) => text.includes(word))) return false;
  let at = text.indexOf('\\');
  while (at !== -1) {
    if (text.charCodeAt(at + 1) !== LOWER_U) {
      at = text.indexOf('\\', at + 2);
      continue;
    }
    const unit = escapedUnit(text, at);
    let length = 6;
    if (isLead(unit)) {
      // A pair is well-formed; a lead without its trail is not.
      if (!isTrail(escapedUnit(text, at + 6))) return false;
      length = 12;
    } else if (Number.isNaN(unit) || unit === 0 || isTrail(unit) || spellsAWord(unit)) {
      return false;
    }
    at = text.indexOf('\\', at + length);
  }
  return true;
}
