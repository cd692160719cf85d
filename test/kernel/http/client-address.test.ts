import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/kernel/http/limits/client-address.ts';

/** The key as ipaddr.js computes it for any IPv4 form it accepts (octal, hexadecimal, shortened). */
function parsedKey(ip: string): string {
  return ipaddr.isValid(ip) && ipaddr.process(ip).kind() === 'ipv4'
    ? ipaddr.process(ip).toString()
    : ip;
}

/*
 * docs/reliability.md, "Hostile input": a client is counted under one key whatever form its
 * address takes (a proxy's X-Forwarded-For included); canonical addresses skip the parsing.
 */
describe('the rate limit key of an IPv4 client', () => {
  it('is the address itself in canonical form, and the parsed address otherwise', () => {
    const octet = fc.oneof(
      fc.integer({ min: 0, max: 255 }).map(String),
      fc.integer({ min: 0, max: 0o777 }).map((n) => `0${n.toString(8)}`),
      fc.integer({ min: 0, max: 255 }).map((n) => `0x${n.toString(16)}`),
      fc.constantFrom('256', '00', '-1', '', ' 1', '1e2'),
    );
    const address = fc.array(octet, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.'));
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV4Extended(), address), (ip) => {
        expect(clientKey(ip)).toBe(parsedKey(ip));
      }),
    );
  });

  it('is the same for an address, its octal form and its IPv4-mapped IPv6 form', () => {
    expect(['192.0.2.1', '0300.0.2.1', '::ffff:192.0.2.1'].map(clientKey)).toEqual([
      '192.0.2.1',
      '192.0.2.1',
      '192.0.2.1',
    ]);
  });
});
