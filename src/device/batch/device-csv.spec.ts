import { csvObjects, CsvError, parseCsv } from './device-csv';

const fieldsOf = (text: string) => parseCsv(text).map((r) => r.fields);

describe('parseCsv (RFC 4180, strict)', () => {
  it('reads plain and quoted fields, CRLF or LF, with or without a final line break', () => {
    expect(fieldsOf('a,b,c\r\n1,2,3')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(fieldsOf('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(fieldsOf('"x, ""y""","line\nbreak",""\n,,')).toEqual([
      ['x, "y"', 'line\nbreak', ''],
      ['', '', ''],
    ]);
    expect(fieldsOf('\uFEFFa,b')).toEqual([['a', 'b']]);
    expect(fieldsOf('')).toEqual([]);
  });

  it('gives each record the line it starts on, past quoted line breaks', () => {
    expect(parseCsv('h\n"a\nb"\nc\n').map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it.each([
    ['a"b,c', /line 1: a quote inside an unquoted field/],
    ['a,b\n"x"y,c', /line 2: text after a closing quote/],
    ['a,b\n"never', /line 2: a quoted field is never closed/],
    ['a\rb', /line 1: a carriage return/],
  ])('refuses %j', (text, reason) => {
    expect(() => parseCsv(text)).toThrow(reason);
    expect(() => parseCsv(text)).toThrow(CsvError);
  });
});

describe('csvObjects', () => {
  const columns = ['device_id', 'model', 'provider'];

  it('maps the records under the exact header', () => {
    expect(csvObjects('device_id,model,provider\nd-1,"hub, 2",acme\n', columns)).toEqual([
      { device_id: 'd-1', model: 'hub, 2', provider: 'acme' },
    ]);
  });

  it('refuses another header, and a record of another width with its line', () => {
    expect(() => csvObjects('id,model,provider\n', columns)).toThrow(/line 1: the header/);
    expect(() => csvObjects('', columns)).toThrow(/line 1: the header/);
    const blankLine = 'device_id,model,provider\nd-1,m,p\n\nd-2,m,p\n';
    expect(() => csvObjects(blankLine, columns)).toThrow(/line 3: 1 fields where 3/);
  });
});
