import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What a per-address limit counts by: an IPv4 address alone, an IPv6 address by its /64 (one
 * subscriber usually holds a whole /64, so counting each address alone let one client pick a
 * fresh address for every request). IPv4-mapped IPv6 counts as the IPv4 address it carries.
 */
export function addressGroup(address: string | undefined): string {
  if (!address) return 'unknown';
  // What isIP takes for IPv4 is already canonical (no leading zeros): no parse on the common path.
  if (isIP(address) !== 6) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const hextets = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${hextets.join(':')}::/64`;
}
