/** Domains whose mailboxes ignore dots in the local part (Gmail's documented behaviour). */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

export interface CanonicalMailbox {
  /** The mailbox the address delivers to: `Pv.X+1@GoogleMail.com` → `pvx@gmail.com`. */
  mailbox: string;
  /** Its domain, as the per-domain hourly cap counts it. */
  domain: string;
}

/**
 * docs/reliability.md, "Hostile input": the caps on e-mails to unverified addresses key on the
 * mailbox, not on the address typed: lower-case, the `+tag` of a sub-address removed (most providers
 * deliver `pv+1@…` to `pv@…`), and for Gmail the dots removed and googlemail.com read as gmail.com.
 * Otherwise `pv+1@…` … `pv+100@…` would be a hundred confirmations in one inbox. Only the caps use
 * it: the lead keeps the address as typed.
 */
export function canonicalMailbox(address: string): CanonicalMailbox {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return { mailbox: lower, domain: '' };
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    local = local.replaceAll('.', '') || local;
  }
  return { mailbox: `${local}@${domain}`, domain };
}
