import { lookup } from 'node:dns/promises';
import * as ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses; tests swap it for a stub (no DNS, no packet out). */
export type WebhookResolver = (hostname: string) => Promise<ResolvedAddress[]>;
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

export const systemResolver: WebhookResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Why a URL may not be sent to; the text is safe to show to the endpoint's admin. */
export class AddressRefused extends Error {
  /** The delivery's reason when an attempt is refused (the message names the host: not kept). */
  constructor(
    message: string,
    readonly reason: 'refused_address' | 'name_not_resolved' = 'refused_address',
  ) {
    super(message);
  }
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Only global unicast: loopback, private, link-local, unique-local, multicast... are refused. An
 * IPv6 address must lie in 2000::/3 (the only space IANA hands out: `::/96`, IPv4-compatible, is
 * "unicast" to ipaddr.js) and outside its special ranges; one that carries an IPv4 address
 * (mapped, NAT64, 6to4, Teredo) is judged by that address instead.
 */
export function isPublicAddress(address: string): boolean {
  // `::a.b.c.d` is IPv4-compatible (how libuv writes `::808:808`), but ipaddr.js reads it as mapped.
  if (address.startsWith('::') && address.includes('.') && !/^::ffff:/i.test(address)) return false;
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return isPublicV4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const carried = carriedIPv4(v6);
  if (carried) return carried.every(isPublicV4);
  return (
    v6.match(GLOBAL_UNICAST_V6) &&
    v6.range() === 'unicast' &&
    !NON_GLOBAL_V6.some((range) => v6.match(range))
  );
}

const isPublicV4 = (v4: ipaddr.IPv4): boolean => v4.range() === 'unicast';

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** Inside 2000::/3 but not global, whether or not the installed ipaddr.js names them. */
const NON_GLOBAL_V6 = ['2001::/23', '2001:db8::/32', '3fff::/20'].map((cidr) =>
  ipaddr.IPv6.parseCIDR(cidr),
);

/** The IPv4 addresses an IPv6 address stands for, where a translator or tunnel will reach them. */
function carriedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = v6.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (v6.isIPv4MappedAddress()) return [v6.toIPv4Address()];
  if (v6.match(NAT64)) return [v4(p[6], p[7])];
  if (v6.match(SIX_TO_FOUR)) return [v4(p[1], p[2])];
  // Teredo: the server's address, and the client's with every bit flipped.
  if (v6.match(TEREDO)) return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)];
  return undefined;
}

const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

/**
 * The URL as it is stored and sent to: `new URL().href`, which percent-encodes (`é` becomes
 * `%C3%A9`) and so may be longer than what was sent. Text that is no URL is returned as it is
 * (the URL rules refuse it).
 */
export function webhookUrlAsStored(raw: string): string {
  return URL.canParse(raw) ? new URL(raw).href : raw;
}

/** The syntax rules, with no lookup: a http(s) URL without credentials; https unless allowed. */
export function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefused('The URL is not valid.');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new AddressRefused(
      allowPrivate ? 'The URL must be http or https.' : 'The URL must be https.',
    );
  }
  if (url.username || url.password) throw new AddressRefused('The URL must not hold credentials.');
  return url;
}

/**
 * The address to connect to: the host's (a literal, or the resolver's answer), checked. Every
 * resolved address must be public, so a name cannot slip a private one in among public ones.
 */
export async function checkTarget(
  url: URL,
  allowPrivate: boolean,
  resolve: WebhookResolver,
): Promise<ResolvedAddress> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      throw new AddressRefused(`The host ${host} could not be resolved.`, 'name_not_resolved');
    }
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw new AddressRefused(`The host ${host} is or resolves to a non-public address.`);
    }
  }
  return addresses[0];
}
