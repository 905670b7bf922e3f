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
export class AddressRefused extends Error {}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Only global unicast: loopback, private, link-local, unique-local, multicast... are refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
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
    if (addresses.length === 0) throw new AddressRefused(`The host ${host} could not be resolved.`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      throw new AddressRefused(`The host ${host} is or resolves to a non-public address.`);
    }
  }
  return addresses[0];
}
