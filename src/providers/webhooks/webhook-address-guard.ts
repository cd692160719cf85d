import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery (docs/webhooks.md, "Destinations inside your network"): a webhook URL
 * makes leadgate send requests from inside the agency's network. Pointed at 127.0.0.1, 10.x, a
 * cloud metadata address (169.254.169.254) or an internal name, it would reach services that trust
 * that network. Only globally routable unicast addresses are allowed unless the operator sets
 * WEBHOOK_ALLOW_PRIVATE=true.
 */
export class PrivateDestinationError extends Error {
  override readonly name = 'PrivateDestinationError';
  constructor(host: string, address: string) {
    super(
      `${host} resolves to ${address}, a loopback, private or reserved address: refused (WEBHOOK_ALLOW_PRIVATE=true allows it)`,
    );
  }
}

/** IPv6's global unicast block: everything else (::7f00:1, 64:ff9b::/96, fc00::/7…) is not a public host. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as the IPv4 address they carry. Any other
 * IPv6 address must lie in 2000::/3 and be plain unicast there (not 6to4, Teredo or documentation,
 * which ipaddr.js names apart): an allow-list, as IPv4-compatible (::127.0.0.1) and NAT64
 * (64:ff9b::7f00:1) forms carry an IPv4 address ipaddr.js would call unicast.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST);
}

/** The address written in a URL's host, if the host is one (`[::1]` included), else undefined. */
export function literalAddressOf(hostname: string): string | undefined {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * A `lookup` for the socket: it checks the addresses the connection will actually use, not the
 * hostname, so a public name resolving to a private address (or re-resolving to one later: DNS
 * rebinding) is refused too. One refused address refuses the name.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const refused = list.find((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(new PrivateDestinationError(hostname, refused.address), '', 0);
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
