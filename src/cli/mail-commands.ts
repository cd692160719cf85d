import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { servedMailIdentity } from '../features/site/served-identity.ts';
import type { Config } from '../kernel/config.ts';
import { mailPreviews, type PreviewName } from './mail-previews.ts';

/**
 * `leadgate mail preview <name>` (docs/emails.md): the e-mails of a sample lead, with the identity
 * and the configuration the server would use, as `.eml` files (what the outbox writes) and their
 * HTML part alone (to open in a browser). Sends nothing, opens no database.
 */
export async function previewMail(
  config: Config,
  name: PreviewName,
  directory: string,
  out: NodeJS.WritableStream,
): Promise<void> {
  const settings = {
    from: config.mail.from,
    agencyEmail: config.mail.agencyEmail,
    siteUrl: config.siteUrl,
    identity: servedMailIdentity,
  };
  const target = resolve(directory);
  await mkdir(target, { recursive: true });
  for (const preview of mailPreviews(name, settings)) {
    const eml = join(target, `${preview.name}.eml`);
    const html = join(target, `${preview.name}.html`);
    await writeFile(eml, preview.eml);
    await writeFile(html, preview.message.html);
    out.write(`${preview.message.subject}\n  ${eml}\n  ${html}\n`);
  }
}
