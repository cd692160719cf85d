import { escapeHtml } from './mail-message.ts';

/*
 * An e-mail's content, written once as blocks and rendered twice: the HTML part
 * (src/kernel/mail/mail-layout.ts puts it in the site's design) and the text part, so the two never
 * say different things.
 */
export type MailBlock =
  | { kind: 'heading'; text: string }
  /**
   * A paragraph; `strong` leads it in bold (a name the eye looks for), `link` follows the text (in
   * the text part, as its bare URL).
   */
  | {
      kind: 'paragraph';
      text: string;
      strong?: string;
      link?: { label: string; url: string };
      small?: boolean;
    }
  /** Label–value pairs; `note` is said after the value (« question hors questionnaire »). */
  | { kind: 'fields'; rows: FieldRow[] }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'signature'; lines: string[] };

export interface FieldRow {
  label: string;
  value: string;
  note?: string;
  /** A mailto: or tel: link for the value. */
  href?: string;
}

/** Text kept as typed, escaped, its line breaks kept as `<br>`. */
function multiline(text: string): string {
  return escapeHtml(text).replace(/\r\n|\r|\n/g, '<br>');
}

const STYLE = {
  h2: 'margin:28px 0 8px;font-size:18px;line-height:1.3;color:#1f2937',
  p: 'margin:0 0 16px',
  small: 'margin:0 0 16px;font-size:15px;color:#4b5563',
  dt: 'margin:12px 0 0;font-size:15px;font-weight:700;color:#4b5563',
  dd: 'margin:2px 0 0;padding:0',
  note: 'font-style:italic;color:#4b5563',
};

export function blocksHtml(blocks: readonly MailBlock[], accent: string): string {
  const link = (label: string, url: string) =>
    `<a href="${escapeHtml(url)}" style="color:${accent};text-decoration:underline">${escapeHtml(label)}</a>`;
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
          return `<h2 style="${STYLE.h2}">${escapeHtml(block.text)}</h2>`;
        case 'paragraph':
          return `<p style="${block.small ? STYLE.small : STYLE.p}">${
            block.strong ? `<strong>${escapeHtml(block.strong)}</strong><br>` : ''
          }${multiline(block.text)}${
            block.link ? ` ${link(block.link.label, block.link.url)}` : ''
          }</p>`;
        case 'fields':
          return `<dl style="margin:0 0 16px">${block.rows
            .map(
              (row) =>
                `<dt style="${STYLE.dt}">${escapeHtml(row.label)}</dt><dd style="${STYLE.dd}">${
                  row.href ? link(row.value, row.href) : multiline(row.value)
                }${row.note ? ` <span style="${STYLE.note}">(${escapeHtml(row.note)})</span>` : ''}</dd>`,
            )
            .join('')}</dl>`;
        case 'button':
          // A link styled as a button: white on the accent (contrast checked by mail-layout.ts).
          return `<p style="margin:24px 0"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:${accent};color:#ffffff;font-weight:700;text-decoration:none">${escapeHtml(block.label)}</a></p>`;
        case 'signature':
          return `<p style="margin:24px 0 0">${block.lines.map(multiline).join('<br>')}</p>`;
      }
    })
    .join('\n');
}

export function blocksText(blocks: readonly MailBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
          return `${block.text}\n${'-'.repeat(Math.min(block.text.length, 60))}`;
        case 'paragraph':
          return [block.strong, block.text, block.link?.url].filter(Boolean).join('\n');
        case 'fields':
          return block.rows
            .map((row) => {
              const value = row.value.includes('\n')
                ? `\n  ${row.value.replace(/\n/g, '\n  ')}`
                : ` ${row.value}`;
              return `${row.label} :${value}${row.note ? ` (${row.note})` : ''}`;
            })
            .join('\n');
        case 'button':
          return `${block.label} :\n${block.url}`;
        case 'signature':
          return block.lines.join('\n');
      }
    })
    .join('\n\n');
}
