import { createHmac, timingSafeEqual } from 'node:crypto';
import { LINK_TOKEN_PARAMETER } from '../../kernel/schemas/newsletter-pages.ts';
import { PRIVACY_CONFIRM_PATH } from '../../kernel/schemas/privacy-pages.ts';

/**
 * The signed link of a privacy request (docs/consent.md), made like a newsletter link: the token is
 * `<request id>.<mac>` (HMAC-SHA256 cut to 128 bits, base64url), so the address never sits in a URL;
 * expiry and single use are the register's business.
 */
export function createPrivacyLinks(siteUrl: string, key: () => Promise<string>) {
  const mac = async (id: string) =>
    createHmac('sha256', await key())
      .update(`privacy-confirm:${id}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  return {
    async url(id: string): Promise<string> {
      return `${siteUrl}${PRIVACY_CONFIRM_PATH}?${LINK_TOKEN_PARAMETER}=${id}.${await mac(id)}`;
    },
    /** The request a token names, or undefined when we did not sign it. */
    async requestOf(token: string): Promise<string | undefined> {
      const match = /^([A-Za-z0-9-]{1,64})\.([A-Za-z0-9_-]{22})$/.exec(token);
      if (!match) return undefined;
      const given = Buffer.from(match[2]!);
      const expected = Buffer.from(await mac(match[1]!));
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? match[1]
        : undefined;
    },
  };
}

export type PrivacyLinks = ReturnType<typeof createPrivacyLinks>;
