const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const EXACT = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

/** "4 min ago" for an ISO time, at `now`. */
export function relative(iso: string, now = Date.now()): string {
  let amount = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
    amount /= size;
  }
  return EXACT.format(new Date(iso));
}

/** A time relative to now, the exact time on hover and to a screen reader's `time` element. */
export function Time({ at, empty = '—' }: { at: string | null | undefined; empty?: string }) {
  if (!at) return <span>{empty}</span>;
  const exact = EXACT.format(new Date(at));
  return (
    <time dateTime={at} title={exact}>
      {relative(at)}
    </time>
  );
}
