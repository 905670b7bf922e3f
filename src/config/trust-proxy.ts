import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Express's named ranges (proxy-addr): private by definition, so accepted whatever their width. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** The widest subnet a setting may trust: wider lets clients on the internet pick their address. */
const MIN_PREFIX = { ipv4: 8, ipv6: 32 };
/** Where IPv4 addresses sit inside IPv6 (`::ffff:a.b.c.d`): proxy-addr checks IPv4 clients there too. */
const IPV4_MAPPED = ipaddr.IPv6.parse('::ffff:0:0');

export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY as Express's `trust proxy` reads it (trimmed; `false`, a hop count, or a comma list
 * of addresses, subnets and named ranges), or a message saying why it is refused: `true`, text
 * Express would not take, or a subnet wider than a /8 (IPv4) or /32 (IPv6), named.
 */
export function parseTrustProxy(raw: string): TrustProxy | { problem: string } {
  const value = raw.trim();
  if (value === 'false') return false;
  if (value === 'true') return { problem: 'must not be true (it trusts every client)' };
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const problem = NAMED_RANGES.has(entry) ? undefined : subnetProblem(entry);
    if (problem) return { problem };
  }
  return entries;
}

function subnetProblem(entry: string): string | undefined {
  const parsed = parseSubnet(entry);
  if (!parsed) {
    return `"${entry}" is not false, a hop count, an address, a subnet or loopback/linklocal/uniquelocal`;
  }
  const [address, prefix] = parsed;
  const kind = address.kind();
  // An IPv6 range over the IPv4-mapped block trusts IPv4 clients as a range of (prefix - 96) bits.
  const mapped =
    address instanceof ipaddr.IPv6 && IPV4_MAPPED.match(address, Math.min(prefix, 96))
      ? prefix - 96
      : undefined;
  if (prefix < MIN_PREFIX[kind] || (mapped !== undefined && mapped < MIN_PREFIX.ipv4)) {
    return `"${entry}" trusts a range wider than a /8 (IPv4) or /32 (IPv6)`;
  }
  return undefined;
}

/** An address with its prefix length, as proxy-addr reads it (`a/len`, `a/netmask` or a bare address). */
function parseSubnet(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const slash = entry.lastIndexOf('/');
  const text = slash === -1 ? entry : entry.slice(0, slash);
  // net.isIP, as proxy-addr checks: ipaddr.js alone also takes forms like `127.1`.
  if (!isIP(text)) return undefined;
  const address = ipaddr.parse(text);
  const max = address.kind() === 'ipv6' ? 128 : 32;
  if (slash === -1) return [address, max];
  const range = entry.slice(slash + 1);
  let prefix: number | null = null;
  if (/^\d+$/.test(range)) prefix = Number(range);
  else if (address.kind() === 'ipv4' && ipaddr.IPv4.isValid(range)) {
    prefix = ipaddr.IPv4.parse(range).prefixLengthFromSubnetMask();
  }
  return prefix === null || prefix <= 0 || prefix > max ? undefined : [address, prefix];
}
