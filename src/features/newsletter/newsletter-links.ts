import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  LINK_TOKEN_PARAMETER,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_PATH,
} from '../../kernel/schemas/newsletter-pages.ts';

/** docs/consent.md: a confirmation link is valid 7 days after the subscription it confirms. */
export const CONFIRMATION_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type LinkPurpose = 'confirm' | 'unsubscribe';

const PATHS: Record<LinkPurpose, string> = {
  confirm: NEWSLETTER_CONFIRM_PATH,
  unsubscribe: NEWSLETTER_UNSUBSCRIBE_PATH,
};

/**
 * The signed links of the newsletter e-mails (docs/consent.md). A token is `<lead id>.<mac>`: the
 * lead names the subscription without putting the address in a URL (URLs end up in logs), the mac
 * (HMAC-SHA256, 128 bits, base64url) proves we wrote it, and differs per purpose so an unsubscribe
 * link never confirms. Expiry and single use are the journal's business: it knows the lead's date
 * and whether its link was used.
 */
export interface NewsletterLinks {
  url(purpose: LinkPurpose, leadId: string): Promise<string>;
  /** The lead a token names, or undefined when the token is not one we signed (tampered, cut). */
  leadOf(purpose: LinkPurpose, token: string): Promise<string | undefined>;
}

/**
 * `key`: the database's signing secret, the same on every node (src/kernel/journal/sql-secrets.ts).
 */
export function createNewsletterLinks(
  siteUrl: string,
  key: () => Promise<string>,
): NewsletterLinks {
  const mac = async (purpose: LinkPurpose, leadId: string) =>
    createHmac('sha256', await key())
      .update(`newsletter-${purpose}:${leadId}`)
      .digest()
      .subarray(0, 16);
  return {
    async url(purpose, leadId) {
      const token = `${leadId}.${(await mac(purpose, leadId)).toString('base64url')}`;
      return `${siteUrl}${PATHS[purpose]}?${LINK_TOKEN_PARAMETER}=${token}`;
    },
    async leadOf(purpose, token) {
      const match = /^([A-Za-z0-9-]{1,64})\.([A-Za-z0-9_-]{22})$/.exec(token);
      if (!match) return undefined;
      const [, leadId, signature] = match;
      // Compared as text: decoding would accept other spellings of the same bytes (the last
      // character's spare bits), so a changed link could still pass.
      const given = Buffer.from(signature!);
      const expected = Buffer.from((await mac(purpose, leadId!)).toString('base64url'));
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? leadId
        : undefined;
    },
  };
}
