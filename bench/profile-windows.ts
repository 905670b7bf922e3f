/**
 * A `.cpuprofile`'s busy samples cut into measured windows (bench:profile):
 * for each window, the samples by layer (bench/profile-layers.ts) and by function. V8 stamps
 * samples with the monotonic clock, as process.hrtime does in the harness, so a window taken in the
 * harness with `nowUs()` selects the samples of the server's profile that fell in it.
 */
import { classify, LAYERS, Layer, Profile } from './profile-layers';

/** A window in the profile's clock (monotonic microseconds). */
export interface Span {
  fromUs: number;
  toUs: number;
}

export interface WindowShares {
  /** Samples with a layer (idle and "(program)" excluded). */
  busy: number;
  /** "(program)" samples: native code outside any script, not in `busy`. */
  program: number;
  byLayer: Map<Layer, number>;
  byFunction: Map<string, number>;
  /** What "other" holds, by owner. */
  unlisted: Map<string, number>;
}

export const nowUs = () => Number(process.hrtime.bigint() / 1000n);
export const add = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/** The function a sample's top frame is, as `name package/file:line` (dist/ and bench/ kept). */
export function functionKey(callFrame: { functionName: string; url: string; lineNumber: number }) {
  const { functionName, url, lineNumber } = callFrame;
  const where = url
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\//, 'dist/')
    .replace(/.*\/bench\//, 'bench/');
  return `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber}` : ''}`;
}

export function windowShares(profile: Profile, windows: Span[]): WindowShares[] {
  const attribution = classify(profile);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out: WindowShares[] = windows.map(() => ({
    busy: 0,
    program: 0,
    byLayer: new Map<Layer, number>(),
    byFunction: new Map<string, number>(),
    unlisted: new Map<string, number>(),
  }));
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const w = windows.findIndex((x) => t >= x.fromUs && t <= x.toUs);
    if (w < 0) continue;
    const node = byId.get(profile.samples[i])!;
    const a = attribution.get(profile.samples[i]);
    if (!a) {
      if (node.callFrame.functionName === '(program)') out[w].program++;
      continue;
    }
    const r = out[w];
    r.busy++;
    add(r.byLayer, a.layer);
    add(r.byFunction, functionKey(node.callFrame));
    if (a.layer === LAYERS[LAYERS.length - 1]) add(r.unlisted, a.owner || '(native)');
  }
  return out;
}
