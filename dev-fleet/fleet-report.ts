/** What dev:fleet prints: one summary line per interval, and event lines for watched devices. */

export interface KindStats {
  ok: number;
  /** Failures by status (0: no answer). */
  failed: Map<number, number>;
  ms: number[];
}

export interface IntervalStats {
  token: KindStats;
  heartbeat: KindStats;
  wentQuiet: number;
  cameBack: number;
}

const kind = (): KindStats => ({ ok: 0, failed: new Map(), ms: [] });

export const newStats = (): IntervalStats => ({
  token: kind(),
  heartbeat: kind(),
  wentQuiet: 0,
  cameBack: 0,
});

export function record(k: KindStats, ok: boolean, status: number, ms: number): void {
  if (ok) k.ok++;
  else k.failed.set(status, (k.failed.get(status) ?? 0) + 1);
  k.ms.push(ms);
}

/** The p-th percentile (0..100) of `xs`, nearest rank; NaN for none. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Elapsed time as +MM:SS (or +H:MM:SS). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const rest = `${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return h > 0 ? `+${h}:${rest}` : `+${rest}`;
}

function kindLine(name: string, k: KindStats): string {
  const failed = [...k.failed].map(([status, n]) => `${n}×${status || 'no answer'}`).join(' ');
  const ms = k.ms.length
    ? ` (p50 ${percentile(k.ms, 50).toFixed(0)} ms, p99 ${percentile(k.ms, 99).toFixed(0)} ms)`
    : '';
  return `${name} ${k.ok} ok${failed ? `, failed ${failed}` : ''}${ms}`;
}

/** One interval's line, with how many devices are quiet and how many hold a token now. */
export function summaryLine(
  elapsedMs: number,
  st: IntervalStats,
  now: { quiet: number; online: number; total: number },
): string {
  const moves = [
    st.wentQuiet ? `${st.wentQuiet} went quiet` : '',
    st.cameBack ? `${st.cameBack} came back` : '',
  ].filter(Boolean);
  return (
    `${clock(elapsedMs)}  ${kindLine('tokens', st.token)}  ${kindLine('heartbeats', st.heartbeat)}` +
    `  | ${now.online}/${now.total} reporting, ${now.quiet} quiet${moves.length ? ` (${moves.join(', ')})` : ''}`
  );
}

/** A watched device's event: what it sent (→) and what came back (←). */
export function eventLine(elapsedMs: number, deviceId: string, text: string): string {
  return `${clock(elapsedMs)}  ${deviceId.padEnd(20)} ${text}`;
}
