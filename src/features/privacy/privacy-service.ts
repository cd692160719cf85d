import { canonicalMailbox } from '../../kernel/lead/canonical-mailbox.ts';
import type { ConfirmationSends } from '../../kernel/lead/confirmation-cap.ts';
import { UpstreamError } from '../../kernel/lead/errors.ts';
import { normalizeEmail, type Lead } from '../../kernel/lead/lead.ts';
import { newLeadId } from '../../kernel/lead/lead.ts';
import { isNewsletterSubscription } from '../newsletter/index.ts';
import type { PrivacyChannel, PrivacyRegister, PrivacyRequestEntry } from './privacy-register.ts';
import type { OutgoingMail } from '../delivery/index.ts';
import type { People } from './journal.ts';
import type { MailMessage, MailSettings } from '../../kernel/mail/mail-message.ts';
import { PRIVACY_LINK_TTL_MS, type PrivacyPageState } from '../../kernel/schemas/privacy-pages.ts';
import {
  PRIVACY_KINDS,
  type PrivacyKind,
  type PrivacyRequestBody,
  type PrivacyResponse,
} from '../../kernel/schemas/privacy-request.ts';
import { privacyAccessEmail, privacyLinkEmail } from './privacy-emails.ts';
import type { PrivacyLinks } from './privacy-links.ts';

export interface PrivacyDependencies {
  register: PrivacyRegister;
  people: Pick<People, 'reference' | 'show'>;
  links: PrivacyLinks;
  /** The provider's `sendMail` (src/features/delivery/provider.ts). */
  send: (
    message: OutgoingMail & MailMessage,
    ref: { id: string; receivedAt: Date },
    signal: AbortSignal,
  ) => Promise<string>;
  /** `people forget` (src/features/privacy/forget-person.ts): the journal, then the provider. */
  forget: (address: string) => Promise<unknown>;
  /** Takes an address off the newsletter list, as its unsubscribe link would. */
  unsubscribe: (lead: Lead) => Promise<void>;
  /**
   * The lead endpoints' caps (docs/reliability.md): one link per address and interval, and
   * CONFIRMATION_DOMAIN_PER_HOUR e-mails per recipient domain, counted with the leads' own.
   */
  cap: { sends: ConfirmationSends; intervalMs: number; domainPerHour: number };
  mail: MailSettings;
  timeoutMs: number;
  now?: () => Date;
  newId?: () => string;
}

const isPrivacyKind = (kind: string): kind is PrivacyKind =>
  (PRIVACY_KINDS as readonly string[]).includes(kind);

/** The cap's bucket for these links, beside the lead kinds' own. */
const CAP_KIND = 'privacy';
const HOUR_MS = 60 * 60 * 1000;

/**
 * docs/consent.md, "Requests about one's data": a request is journaled in the register and a signed
 * link is e-mailed to the address (within the per-mailbox cap); nothing is done until the person
 * follows it and presses the button. The answer never says whether the address is known.
 */
export function createPrivacy(deps: PrivacyDependencies) {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? newLeadId;

  /** Where a link stands, with its request when it may be used. */
  async function standing(
    token: string,
  ): Promise<
    | { state: 'invalid' | 'used' | 'expired' }
    | { state: PrivacyPageState; entry: PrivacyRequestEntry; kind: PrivacyKind; address: string }
  > {
    const id = await deps.links.requestOf(token);
    const entry = id === undefined ? undefined : await deps.register.find(id);
    // A request the team entered by hand was never linked: only the site's kinds have a page.
    if (!entry || !isPrivacyKind(entry.kind)) return { state: 'invalid' as const };
    if (entry.status !== 'pending' || entry.address === null) return { state: 'used' as const };
    if (now().getTime() - entry.receivedAt.getTime() > PRIVACY_LINK_TTL_MS) {
      await deps.register.update(entry.id, { status: 'expired' });
      return { state: 'expired' as const };
    }
    return {
      state: `confirm-${entry.kind}` as const,
      entry,
      kind: entry.kind,
      address: entry.address,
    };
  }

  return {
    async request(body: PrivacyRequestBody, channel: PrivacyChannel): Promise<PrivacyResponse> {
      const address = normalizeEmail(body.email);
      const at = now();
      const id = newId();
      await deps.register.add({
        id,
        receivedAt: at,
        channel,
        kind: body.kind,
        address,
        reference: await deps.people.reference(address),
        status: 'pending',
        confirmedAt: null,
        handledBy: null,
        answeredAt: null,
        note: body.message ?? null,
        identityCheck: null,
        outcome: null,
      });
      const since = new Date(at.getTime() - deps.cap.intervalMs);
      const allowed =
        (deps.cap.intervalMs === 0 && deps.cap.domainPerHour === 0) ||
        (await deps.cap.sends.claim({
          kind: CAP_KIND,
          ...canonicalMailbox(address),
          leadId: id,
          at,
          since,
          domainMax: deps.cap.domainPerHour,
          domainSince: new Date(at.getTime() - HOUR_MS),
        }));
      if (!allowed) {
        // Which cap held it, said honestly: a link to this address lately, or none now to its domain.
        const last = await deps.cap.sends.lastClaim(CAP_KIND, address);
        const recent = last !== undefined && last.at > since;
        return { success: true, confirmation: recent ? 'already_sent' : 'not_sent' };
      }
      const message = privacyLinkEmail(address, body.kind, await deps.links.url(id), deps.mail);
      try {
        await deps.send(message, { id, receivedAt: at }, AbortSignal.timeout(deps.timeoutMs));
      } catch (error) {
        throw new UpstreamError('the privacy link could not be sent', { cause: error });
      }
      return { success: true, confirmation: 'sent' };
    },

    /** GET of the link: shows what confirming will do, changes nothing. */
    async check(token: string): Promise<PrivacyPageState> {
      return (await standing(token)).state;
    },

    /** POST of the link: confirms once, then does what was asked. */
    async confirm(token: string): Promise<PrivacyPageState> {
      const found = await standing(token);
      if (!('entry' in found)) return found.state;
      const { entry, kind, address } = found;
      if (!(await deps.register.confirm(entry.id, now()))) return 'used';
      if (kind === 'erasure') {
        await deps.forget(address);
      } else if (kind === 'access') {
        const file = await deps.people.show(address);
        const message = privacyAccessEmail(address, file, deps.mail);
        await deps.send(
          message,
          { id: entry.id, receivedAt: entry.receivedAt },
          AbortSignal.timeout(deps.timeoutMs),
        );
      } else {
        const { leads } = await deps.people.show(address);
        const subscription = leads
          .map((row) => row.lead)
          .filter(isNewsletterSubscription)
          .at(-1);
        if (subscription) await deps.unsubscribe(subscription);
      }
      await deps.register.update(entry.id, { status: 'done', answeredAt: now() });
      return `done-${kind}`;
    },
  };
}

export type Privacy = ReturnType<typeof createPrivacy>;
