/**
 * Where a `.cpuprofile`'s busy samples go, by layer (the rows of `npm run bench:profile`'s table,
 * docs/benchmarks.md): each sample is given to the frame at the top of its stack that has a
 * script, and that frame's package decides the layer. Helper packages shared by several layers (qs, debug, the
 * es-* shims) count for the layer of whoever called them; node's own code counts as node's,
 * except crypto (counted for jose, jsonwebtoken or the Stripe SDK when they called it) and file
 * writes under sonic-boom (the log lines written). The bare Nest app's own code (bench/*.ts, its
 * reference handlers) counts as the service's own code does: it is the app's code.
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export const LAYERS = [
  'node http, net, streams, microtasks (node internals)',
  'express, router, body-parser',
  'GC',
  'logging: pino-http, pino, redact, nestjs-pino',
  'log lines written (fs writes from sonic-boom)',
  'pg driver (incl. date parsing)',
  'nest core: router, guards, pipes (incl. terminus, throttler)',
  'helmet, cors, cookie-parser, serve-static',
  'class-validator, class-transformer',
  'jose + WebCrypto',
  'jsonwebtoken, passport',
  'stripe SDK',
  'typeorm',
  'service code (dist/)',
  'other (hashing, timers, native, unlisted packages)',
] as const;
export type Layer = (typeof LAYERS)[number];
const [NODE, EXPRESS, GC, LOGGING, LOG_WRITES, PG, NEST, HTTP_MW, VALIDATION, JOSE, JWT, STRIPE] =
  LAYERS;
const [, , , , , , , , , , , , TYPEORM, SERVICE, OTHER] = LAYERS;

const PACKAGES: [Layer, string[]][] = [
  [
    EXPRESS,
    [
      'express',
      'router',
      'body-parser',
      'raw-body',
      'finalhandler',
      'send',
      'path-to-regexp',
      'type-is',
      'content-type',
      'on-finished',
      'parseurl',
      'mime-types',
      'mime-db',
      'accepts',
      'negotiator',
      'http-errors',
      'statuses',
      'fresh',
      'etag',
      'vary',
      'encodeurl',
      'escape-html',
      'proxy-addr',
      'forwarded',
      'ipaddr.js',
      'media-typer',
      'content-disposition',
      'range-parser',
      'bytes',
      'depd',
      'is-promise',
      'ee-first',
      'unpipe',
      'destroy',
      'merge-descriptors',
      'cookie-signature',
    ],
  ],
  [
    LOGGING,
    [
      'pino',
      'pino-http',
      'nestjs-pino',
      'pino-std-serializers',
      '@pinojs/redact',
      'fast-redact',
      'quick-format-unescaped',
      'sonic-boom',
      'on-exit-leak-free',
      'thread-stream',
      'safe-stable-stringify',
    ],
  ],
  [
    PG,
    [
      'pg',
      'pg-pool',
      'pg-protocol',
      'pg-types',
      'pg-int8',
      'postgres-date',
      'postgres-array',
      'postgres-bytea',
      'postgres-interval',
      'pg-connection-string',
      'pgpass',
      'split2',
    ],
  ],
  [
    NEST,
    [
      '@nestjs/core',
      '@nestjs/common',
      '@nestjs/platform-express',
      '@nestjs/terminus',
      '@nestjs/throttler',
      '@nest-lab/throttler-storage-redis',
      '@nestjs/swagger',
      'rxjs',
      'reflect-metadata',
      'iterare',
      'uid',
      'load-esm',
    ],
  ],
  [HTTP_MW, ['helmet', 'cors', 'cookie-parser', 'cookie', 'serve-static', 'object-assign']],
  [VALIDATION, ['class-validator', 'class-transformer', 'validator', 'libphonenumber-js']],
  [JOSE, ['jose']],
  [
    JWT,
    [
      'jsonwebtoken',
      'jws',
      'jwa',
      'passport',
      'passport-jwt',
      'passport-strategy',
      '@nestjs/passport',
      'buffer-equal-constant-time',
      'ecdsa-sig-formatter',
      'lodash.includes',
      'lodash.isboolean',
      'lodash.isinteger',
      'lodash.isnumber',
      'lodash.isplainobject',
      'lodash.isstring',
      'lodash.once',
      'semver',
    ],
  ],
  [STRIPE, ['stripe']],
  [TYPEORM, ['typeorm', '@nestjs/typeorm', 'sql-highlight', 'ansis', 'dayjs', 'app-root-path']],
];
const LAYER_OF = new Map<string, Layer>(PACKAGES.flatMap(([l, ps]) => ps.map((p) => [p, l])));
/** Helpers used by several layers: their time is their caller's. */
const SHARED =
  /^(qs|side-channel.*|get-intrinsic|call-bind.*|call-bound|es-.*|has-.*|hasown|function-bind|gopd|dunder-proto|get-proto|math-intrinsics|object-inspect|safe-buffer|safer-buffer|debug|ms|iconv-lite|inherits|setprototypeof|toidentifier|tslib|fast-safe-stringify|uuid)$/;

/** The package a script belongs to (the innermost node_modules), 'node:', 'dist', 'bench' or ''. */
export function packageOf(url: string): string {
  if (!url) return '';
  if (url.startsWith('node:')) return 'node:';
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) {
    const rest = url.slice(i + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/bench/')) return 'bench';
  return url.includes('/dist/') ? 'dist' : 'other';
}

export interface Attribution {
  layer: Layer;
  /** The package whose frame decided it ('node:', 'dist', a package name, or '' for native). */
  owner: string;
}

/** Every node's layer (null: idle or program, not busy). */
export function classify(profile: Profile): Map<number, Attribution | null> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const result = new Map<number, Attribution | null>();
  for (const n of profile.nodes) {
    const fn = n.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)' || fn === '(root)') {
      result.set(n.id, null);
      continue;
    }
    if (fn === '(garbage collector)') {
      result.set(n.id, { layer: GC, owner: '' });
      continue;
    }
    const stack: string[] = [];
    let leafUrl = '';
    for (let cur: number | undefined = n.id; cur !== undefined; cur = parent.get(cur)) {
      const url = byId.get(cur)!.callFrame.url;
      leafUrl ||= url;
      const p = packageOf(url);
      if (p) stack.push(p);
    }
    result.set(n.id, attribute(stack, leafUrl));
  }
  return result;
}

/** The layer of a stack of packages, leaf first; `leafUrl` the first script's url. */
function attribute(stack: string[], leafUrl: string): Attribution {
  const first = stack.findIndex((p) => !SHARED.test(p));
  if (first < 0) return { layer: OTHER, owner: stack[0] ?? '' };
  const owner = stack[first];
  if (owner === 'node:') {
    const above = stack.slice(first).find((x) => x !== 'node:' && !SHARED.test(x)) ?? '';
    if (/internal\/crypto|node:crypto/.test(leafUrl)) {
      const layer = LAYER_OF.get(above);
      const ok = layer === JOSE || layer === JWT || layer === STRIPE;
      return { layer: ok ? layer : OTHER, owner: `node: crypto (from ${above || '?'})` };
    }
    if (above === 'sonic-boom' && /node:fs|internal\/fs/.test(leafUrl)) {
      return { layer: LOG_WRITES, owner };
    }
    return { layer: NODE, owner };
  }
  if (owner === 'dist' || owner === 'bench') return { layer: SERVICE, owner };
  return { layer: LAYER_OF.get(owner) ?? OTHER, owner };
}
