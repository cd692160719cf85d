import ipaddr from 'ipaddr.js';
import { InvalidConfigError } from './read-env.ts';

/**
 * "10.0.0.0/8, ::1" → ['10.0.0.0/8', '::1'], each entry checked by ipaddr.js: the schema's pattern
 * only sees the characters, and a typo here would trust or exempt the wrong clients silently.
 */
export function addressList(value: string | undefined, name: string): string[] {
  if (value === undefined) return [];
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry)) {
      throw new InvalidConfigError(`${name} must list addresses or CIDRs, "${entry}" is neither`);
    }
  }
  return entries;
}
