import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Value from 'typebox/value';
import type { MailIdentity } from '../../kernel/mail/mail-identity.ts';
import { AGENCY, type Agency } from './agency.ts';
import { AgencySchema } from './agency-schema.ts';
import { mailIdentity } from './mail-identity.ts';

/**
 * The identity of the site being served (docs/site.md, « Serving »): the one holder every e-mail,
 * the workspace's header and the TOTP issuer read at use time. It starts as the identity file this
 * process read (AGENCY); a server serving a build takes the identity that build was made with
 * (`site-identity.json` in DIST_DIR) at start and at every rebuild it swaps in, so `leadgate build`
 * with a new `site/agency.yaml` or AGENCY_FILE renames the agency in its e-mails and workspace
 * without a restart. One per process, as the identity file was: a process serves one site.
 */
export const BUILT_IDENTITY_FILE = 'site-identity.json';

let current: Agency = AGENCY;
let mail: { of: Agency; identity: MailIdentity } | undefined;

/** The agency as the site being served names it. */
export function servedAgency(): Agency {
  return current;
}

/**
 * Takes the identity a build of `siteDir` was made with; false when the build holds none (a build
 * older than this file) or one that does not pass the identity's schema, the current one kept.
 */
export function serveIdentityOf(siteDir: string): boolean {
  const file = join(siteDir, BUILT_IDENTITY_FILE);
  if (!existsSync(file)) return false;
  const agency: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Value.Check(AgencySchema, agency)) return false;
  current = agency;
  return true;
}

/**
 * A server started without a build, or on one that holds no identity, speaks with the identity file
 * this process read: every start says which identity it serves, whatever an earlier server of the
 * same process took.
 */
export function serveProcessIdentity(): void {
  current = AGENCY;
}

function currentMail(): MailIdentity {
  if (mail?.of !== current) mail = { of: current, identity: mailIdentity(current) };
  return mail.identity;
}

/**
 * The e-mails' identity (src/kernel/mail/mail-identity.ts) read from the holder at each use: the
 * providers, the alerts, the summary and the privacy desk keep this object, never a copy.
 */
export const servedMailIdentity: MailIdentity = {
  get senderName() {
    return currentMail().senderName;
  },
  get agencyName() {
    return currentMail().agencyName;
  },
  get address() {
    return currentMail().address;
  },
  get phone() {
    return currentMail().phone;
  },
  get brandColor() {
    return currentMail().brandColor;
  },
  get texts() {
    return currentMail().texts;
  },
};
