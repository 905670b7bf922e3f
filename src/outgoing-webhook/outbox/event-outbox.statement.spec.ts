import { outboxStatement } from './event-outbox.service';

describe('outboxStatement', () => {
  it('takes only a change that returns its row, which guards the event', () => {
    const insert = 'INSERT INTO t (a) VALUES ($1)';
    expect(() => outboxStatement(insert, 1)).toThrow(/RETURNING 1/);
    const sql = outboxStatement(`${insert} RETURNING 1`, 1);
    expect(sql).toContain('change AS (INSERT INTO t (a) VALUES ($1) RETURNING 1)');
    // Nothing is stored for the event unless the change returned a row.
    expect(sql.match(/EXISTS \(SELECT 1 FROM change\)/g)).toHaveLength(2);
    // The event's own parameters follow the change's.
    expect(sql).toContain('SELECT $2::uuid, $3::text, $4::uuid, $5::text, $6::timestamptz');
  });
});
