import { encodeKeysetCursor } from '../../src/common/pagination/keyset-cursor';

/**
 * Times `Date.parse` accepts (or nearly) and PostgreSQL refuses or reads otherwise: a bare year, a
 * bare number, February 30, year 0, the last JavaScript date, an hour 24, in the lists' own
 * microsecond shape and outside it.
 */
export const CRAFTED_CURSOR_TIMES = [
  '2026',
  '1',
  '2026-02-30',
  '2026-02-30T00:00:00.000000Z',
  '0000-01-01T00:00:00.000000Z',
  '0000-01-01',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-13T00:00:00.000000Z',
  '2026-01-01T24:00:00.000000Z',
  '2026-11-23T08:52:23.123456+14:00',
  'Tue Nov 24 2026',
];

/** Position cursors of a newest-first `(at, id)` list (subscriptions, deliveries), one per time. */
export function craftedTimeCursors(id = '7a0e3f8e-0000-4000-8000-000000000001'): string[] {
  return CRAFTED_CURSOR_TIMES.map((at) => encodeKeysetCursor({ at, id }));
}
