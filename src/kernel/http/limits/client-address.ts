import ipaddr from 'ipaddr.js';
import { isDottedQuad } from '../../lead/dotted-quad.ts';

/**
 * The key a client is counted under: its IPv4 address, or the /64 of its IPv6 address. An IPv6
 * subscriber is handed a whole /64 (RFC 6177) and can pick a new address per request inside it, so
 * counting single addresses would give it 2^64 budgets. IPv4-mapped IPv6 counts as the IPv4 address.
 */
export function clientKey(ip: string): string {
  // What a socket reports is already its own key: no parsing on each request of a 429 flood
  // (docs/performance.md, "The 429 flood").
  if (isDottedQuad(ip)) return ip;
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}

/** A test "is this client in one of these addresses/CIDRs" (RATE_LIMIT_ALLOW, already validated). */
export function matcherFor(entries: readonly string[]): (ip: string) => boolean {
  const ranges = entries.map((entry): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  });
  return (ip) => {
    if (!ipaddr.isValid(ip)) return false;
    const address = ipaddr.process(ip);
    return ranges.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    );
  };
}
