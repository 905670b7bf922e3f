/** The median of the numbers that are not NaN; NaN for none. */
export const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A figure for the page: `digits` decimals, `-` for none. */
export const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
