/**
 * A small strict RFC 4180 reader for `device:import`: no CSV library is among the dependencies,
 * and the file is three plain columns, so a few dozen lines beat a new dependency. Strict, because
 * a file that is read "somehow" registers devices under wrong ids: a quote inside an unquoted
 * field, text after a closing quote, an unterminated quote or a row with another number of fields
 * is refused with its line, never guessed at. Records end with CRLF or LF; a field in double
 * quotes may hold commas, line breaks and `""` for a quote; a UTF-8 byte order mark is skipped.
 */

/** A file that is not the CSV it must be; `line` counts from 1. */
export class CsvError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** A record's fields and the line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** Every record of the text; a final line break ends the last record. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  // The field so far was quoted: only a separator may follow it.
  let quoted = false;
  let line = 1;
  let startLine = 1;
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  while (i < text.length) {
    const c = text[i];
    const newline = c === '\n' || (c === '\r' && text[i + 1] === '\n');
    if (quoted && c !== ',' && !newline) throw new CsvError(line, 'text after a closing quote');
    if (c === '"' && field === '') {
      const end = closingQuote(text, i + 1, line);
      field = text.slice(i + 1, end.at).replaceAll('""', '"');
      quoted = true;
      line = end.line;
      i = end.at + 1;
    } else if (c === '"') {
      throw new CsvError(line, 'a quote inside an unquoted field');
    } else if (c === ',' || newline) {
      fields.push(field);
      field = '';
      quoted = false;
      i += c === '\r' ? 2 : 1;
      if (c === ',') continue;
      records.push({ fields, line: startLine });
      fields = [];
      line += 1;
      startLine = line;
    } else if (c === '\r') {
      throw new CsvError(line, 'a carriage return outside quotes without a line feed');
    } else {
      field += c;
      i += 1;
    }
  }
  if (field !== '' || quoted || fields.length > 0) {
    records.push({ fields: [...fields, field], line: startLine });
  }
  return records;
}

/** The index of the quote that closes a field opened before `from`, and the line it is on. */
function closingQuote(text: string, from: number, line: number): { at: number; line: number } {
  let at = from;
  let current = line;
  for (;;) {
    const next = text.indexOf('"', at);
    if (next === -1) throw new CsvError(line, 'a quoted field is never closed');
    for (let k = at; k < next; k++) if (text[k] === '\n') current += 1;
    if (text[next + 1] !== '"') return { at: next, line: current };
    at = next + 2;
  }
}

/**
 * The records under a header that must be exactly `columns`, each as an object of them; a record
 * with another number of fields (a blank line is one empty field) is refused with its line.
 */
export function csvObjects(text: string, columns: readonly string[]): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.fields.join(',') !== columns.join(',')) {
    throw new CsvError(1, `the header must be ${columns.join(',')}`);
  }
  return rows.map(({ fields, line }) => {
    if (fields.length !== columns.length) {
      throw new CsvError(line, `${fields.length} fields where ${columns.length} were expected`);
    }
    return Object.fromEntries(columns.map((c, k) => [c, fields[k]]));
  });
}
