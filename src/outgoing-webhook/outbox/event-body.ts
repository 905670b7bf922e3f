/**
 * The body of an outgoing event (contract section 8), `{"type","timestamp","data"}`: the one place
 * its bytes are made, `JSON.stringify`'s for that object, which the receivers' signatures cover.
 */

/** The body as the text before and after its data, for data made elsewhere (eachRowEventSql). */
export function envelope(type: string, at: Date): [head: string, tail: string] {
  const head = `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(at.toISOString())}`;
  return [`${head},"data":`, '}'];
}

/** The body of an event of `type` at `at` with `data`. */
export function bodyOf(type: string, at: Date, data: object): string {
  const [head, tail] = envelope(type, at);
  return `${head}${JSON.stringify(data)}${tail}`;
}
