import { blocksHtml, blocksText, type MailBlock } from './mail-blocks.ts';
import type { MailIdentity } from './mail-identity.ts';
import { escapeHtml } from './mail-message.ts';

/** The site's ink (site/assets/site.css): the accent when the brand colour is too light. */
const INK = '#1f2937';

/** WCAG 2.x relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => {
    const value = parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * channels[0]! + 0.7152 * channels[1]! + 0.0722 * channels[2]!;
}

/**
 * The brand colour when white text on it reads at 4.5:1 at least (WCAG 1.4.3), the site's ink
 * otherwise: the header band, the buttons and the links use it, so an e-mail is readable by
 * construction whatever colour the identity names.
 */
export function readableAccent(color: string): string {
  if (!/^#[0-9a-f]{6}$/i.test(color)) return INK;
  return 1.05 / (luminance(color) + 0.05) >= 4.5 ? color : INK;
}

export interface MailPage {
  /** The document's title (what a screen reader announces first) and the heading under the band. */
  title: string;
  /** The first line some mail clients show in the list, hidden in the message itself. */
  preview?: string;
  blocks: readonly MailBlock[];
}

/**
 * One e-mail in the site's design (docs/emails.md): system fonts, the site's colours, one column
 * of 600 px at most. Tables only for the layout, marked role="presentation" so screen readers read
 * the text alone; inline styles only, as mail clients drop <style> sheets and classes. The whole
 * is one `role="article"` named by its title, so a screen reader inside a mail client announces
 * where the e-mail starts and ends.
 */
export function mailHtml(page: MailPage, identity: MailIdentity, siteUrl: string): string {
  const accent = readableAccent(identity.brandColor);
  const footer = [
    escapeHtml(identity.agencyName),
    escapeHtml(identity.address),
    `<a href="tel:${escapeHtml(identity.phone.dial)}" style="color:#4b5563">${escapeHtml(identity.phone.display)}</a>`,
    `<a href="${escapeHtml(siteUrl)}" style="color:#4b5563">${escapeHtml(siteUrl.replace(/^https?:\/\//, ''))}</a>`,
  ].join(' · ');
  const preview = page.preview
    ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(page.preview)}</div>\n`
    : '';
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(page.title)}</title>
</head>
<body style="margin:0;padding:0;background:#eef2fb;color:${INK};font:17px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif">
<div role="article" aria-roledescription="e-mail" aria-label="${escapeHtml(page.title)}" lang="fr">
${preview}<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#eef2fb">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:600px;background:#ffffff;border:1px solid #d1d5db;border-radius:8px">
<tr><td style="padding:16px 24px;background:${accent};border-radius:8px 8px 0 0;color:#ffffff;font-size:18px;font-weight:700">${escapeHtml(identity.agencyName)}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 20px;font-size:22px;line-height:1.3;color:${INK}">${escapeHtml(page.title)}</h1>
${blocksHtml(page.blocks, accent)}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #d1d5db;font-size:14px;color:#4b5563">${footer}</td></tr>
</table>
</td></tr>
</table>
</div>
</body>
</html>
`;
}

/** The text part: the title, the same blocks, then the agency's name, address and phone. */
export function mailText(page: MailPage, identity: MailIdentity, siteUrl: string): string {
  const footer = [
    '--',
    identity.agencyName,
    identity.address,
    identity.phone.display,
    siteUrl,
  ].join('\n');
  return `${page.title}\n\n${blocksText(page.blocks)}\n\n${footer}\n`;
}
