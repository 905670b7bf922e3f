import { envelope } from './event-body';
import { jsonObjectSql } from './event-outbox.sql';
import { outboxStatement } from './event-outbox.service';

describe('outboxStatement', () => {
  it('takes only a change that returns its row, which guards the event', () => {
    const insert = 'INSERT INTO t (a) VALUES ($1)';
    expect(() => outboxStatement(insert, 1)).toThrow(/RETURNING 1/);
    const sql = outboxStatement(`${insert} RETURNING 1`, 1);
    expect(sql).toContain('change AS (INSERT INTO t (a) VALUES ($1) RETURNING 1)');
    // The event row exists only when the change returned a row; its deliveries come from it.
    expect(sql.match(/WHERE EXISTS \(SELECT 1 FROM change\)\)/g)).toHaveLength(1);
    expect(sql).toContain('FROM ev JOIN webhook_endpoints');
    // The event's own parameters follow the change's.
    expect(sql).toContain('SELECT $2::uuid AS id, $3::text AS type, $4::uuid AS org_id');
    expect(sql).toContain('$6::timestamptz');
  });
});

describe('the body of an event', () => {
  const at = new Date('2026-12-07T03:00:00.123Z');
  it("is JSON.stringify's bytes of {type, timestamp, data} around the data", () => {
    const data = { device_id: 'a"b\\c\n', battery_pct: null };
    const [head, tail] = envelope('device.offline', at);
    expect(`${head}${JSON.stringify(data)}${tail}`).toBe(
      JSON.stringify({ type: 'device.offline', timestamp: at.toISOString(), data }),
    );
  });
  it('names its SQL fields in order, a JSON object text', () => {
    expect(jsonObjectSql({ a: 'x.a', b: "'b'::text" })).toBe(
      `('{"a":' || COALESCE(to_json(x.a)::text, 'null') || ',"b":' || ` +
        `COALESCE(to_json('b'::text)::text, 'null') || '}')`,
    );
  });
});
