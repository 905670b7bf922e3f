/** `application/json` and structured-syntax suffixes such as `application/merge-patch+json`. */
const JSON_SUFFIX_TYPE = /^application\/[\w.!#$&^-]+\+json$/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;
const UTF8 = /^utf-?8$/i;

/** Whether a Content-Type header names JSON, whatever its parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || JSON_SUFFIX_TYPE.test(type);
}

/** No charset parameter (JSON is UTF-8 by definition) or an explicit UTF-8 one. */
export function isUtf8Charset(contentType: string): boolean {
  const charset = CHARSET.exec(contentType);
  return charset === null || UTF8.test(charset[1]);
}
