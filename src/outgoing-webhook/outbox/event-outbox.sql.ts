import { envelope } from './event-body';

/**
 * The outbox's SQL (docs/outgoing-webhooks.md, "Running it"): the one shape every event is stored
 * in, with its deliveries. Statements are built once
 * (docs/decisions/0012-constant-sql-on-hot-paths.md).
 */

/** The parts of an outbox statement around its one INSERT shape. */
interface OutboxParts {
  /** CTEs the events may read, such as the change they report. */
  with?: string;
  /** A query of the events: id, type, org_id, payload, data_key_id, subject_id. */
  events: string;
  /** The parameter of their time. */
  at: string;
  /**
   * The parameter of the one endpoint to deliver to, whatever it subscribes to, even disabled (a
   * test). Without it: the enabled endpoints of each event's organization subscribed to its type.
   */
  endpoint?: string;
}

/**
 * The events, their deliveries to the endpoints subscribed now, and what they report, as one
 * statement: atomic by itself, so a change outside a transaction needs no BEGIN/COMMIT, and one
 * round trip inside one. `subscribed` is read once, so an event is unsettled exactly when it has
 * deliveries; `ev`, read twice, is made once (its ids too). The deliveries' key to their event is
 * checked at the statement's end, after every part of it has run. Returns the counts `stored` and
 * `delivered`.
 */
function outboxSql(p: OutboxParts): string {
  const audience =
    p.endpoint === undefined
      ? 'w.org_id = ev.org_id AND w.enabled AND ev.type = ANY(w.event_types)'
      : `w.id = ${p.endpoint}::uuid`;
  const at = `${p.at}::timestamptz`;
  return `WITH ${p.with === undefined ? '' : `${p.with},`}
  ev AS (${p.events}),
  subscribed AS (SELECT ev.id AS event_id, w.id AS endpoint_id
    FROM ev JOIN webhook_endpoints w ON ${audience}),
  events AS (INSERT INTO outgoing_events
    (id, type, org_id, payload, created_at, settled_at, data_key_id, subject_id)
    SELECT id, type, org_id, payload, ${at},
      CASE WHEN id IN (SELECT event_id FROM subscribed) THEN NULL ELSE ${at} END,
      data_key_id, subject_id
    FROM ev RETURNING 1),
  deliveries AS (INSERT INTO webhook_deliveries
    (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
    SELECT event_id, endpoint_id, 'pending', 0, ${at}, false, ${at}
    FROM subscribed RETURNING 1)
  SELECT (SELECT count(*) FROM events)::int AS "stored",
    (SELECT count(*) FROM deliveries)::int AS "delivered"`;
}

/**
 * One event from parameters after the `n` of the change before it (if any): $n+1 id, +2 type,
 * +3 organization, +4 payload, +5 time, +6 data key, +7 subject, and +8 the one endpoint of a test.
 * With a change, nothing but the change when it returned no row.
 */
export function oneEventSql(change: string | undefined, n: number, test = false): string {
  const [id, type, org, payload, at, key, subject, endpoint] = [1, 2, 3, 4, 5, 6, 7, 8].map(
    (i) => `$${n + i}`,
  );
  return outboxSql({
    with: change === undefined ? undefined : `change AS (${change})`,
    events: `SELECT ${id}::uuid AS id, ${type}::text AS type, ${org}::uuid AS org_id,
      ${payload}::text AS payload, ${key}::uuid AS data_key_id, ${subject}::uuid AS subject_id
      ${change === undefined ? '' : 'WHERE EXISTS (SELECT 1 FROM change)'}`,
    at,
    endpoint: test ? endpoint : undefined,
  });
}

/** Many organization events (no personal data): $1 ids, $2 types, $3 organizations, $4 payloads, $5 time. */
export const MANY_EVENTS_SQL = outboxSql({
  events: `SELECT id, type, org_id, payload, NULL::uuid AS data_key_id, NULL::uuid AS subject_id
    FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[]) AS e(id, type, org_id, payload)`,
  at: '$5',
});

/**
 * An event of one type for each row of `change`, the last of `ctes`, which returns the event's
 * organization (`org_id`) and its data as JSON text (`data`, see jsonObjectSql). The parameters
 * after the change's `n`: $n+1 type, +2 and +3 the body's text around the data (envelope), +4 time.
 */
function eachRowEventSql(ctes: string, n: number): string {
  const [type, head, tail, at] = [1, 2, 3, 4].map((i) => `$${n + i}`);
  return outboxSql({
    with: ctes,
    events: `SELECT gen_random_uuid() AS id, ${type}::text AS type, c.org_id,
      ${head}::text || c.data || ${tail}::text AS payload,
      NULL::uuid AS data_key_id, NULL::uuid AS subject_id FROM change c`,
    at,
  });
}

/** eachRowEventSql's parameters after the change's: an event of `type` at `at`. */
export function eachRowParams(type: string, at: Date): unknown[] {
  return [type, ...envelope(type, at), at];
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

/** A statement whose change makes one event per row it returns (eachRowStatement). */
export type EachRowStatement = string & { readonly __eachRow: true };

/**
 * The statement for a change that reports each row it touches, with the events built by
 * PostgreSQL: `ctes` end in one named `change` (parameters $1…$n) that returns the event's
 * `org_id` and its `data` as JSON text (jsonObjectSql). A batch of any size is one round trip,
 * and nothing of it passes through this process.
 */
export function eachRowStatement(ctes: string, n: number): EachRowStatement {
  if (!/\bchange AS \(/.test(ctes)) throw new Error('the events come from a CTE named change');
  return eachRowEventSql(ctes, n) as EachRowStatement;
}
