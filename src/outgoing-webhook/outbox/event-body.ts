/**
 * The body of an outgoing event (contract section 8), `{"type","timestamp","data"}`: the one place
 * its bytes are made, `JSON.stringify`'s for that object, which the receivers' signatures cover.
 */

/**
 * Data already written as JSON text by PostgreSQL (jsonObjectSql): stored as it is, not
 * stringified again.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** The body as the text before and after its data, for data made elsewhere (eachRowEventSql). */
export function envelope(type: string, at: Date): [head: string, tail: string] {
  const head = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(at.toISOString())}`;
  return [`${head},"data":`, '}'];
}

/** The body of an event of `type` at `at` with `data`. */
export function bodyOf(type: string, at: Date, data: object): string {
  const [head, tail] = envelope(type, at);
  return `${head}${data instanceof JsonText ? data.text : JSON.stringify(data)}${tail}`;
}

/**
 * A JSON object with `JSON.stringify`'s bytes, made by PostgreSQL: each key (in order) with its SQL
 * value. `to_json` escapes a string as JavaScript does (quote, backslash, control characters as
 * \b \f \n \r \t or \u00xx) and leaves the rest; NULL is `null`. Integers and text only: PostgreSQL
 * prints other numbers and times its own way.
 */
export function jsonObjectSql(fields: Record<string, string>): string {
  const members = Object.entries(fields).map(
    ([key, value], i) =>
      `'${i === 0 ? '{' : ','}${JSON.stringify(key)}:' || COALESCE(to_json(${value})::text, 'null')`,
  );
  return `(${members.join(' || ')} || '}')`;
}
