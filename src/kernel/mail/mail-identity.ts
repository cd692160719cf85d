/**
 * What the e-mails say in the agency's voice: who signs, where the agency is, and the sentences a
 * person reads. The composition root builds it from the agency's identity
 * (src/features/site/mail-identity.ts): the kernel sits below the site feature
 * (docs/architecture.md), so it receives it, never imports it. docs/emails.md lists every text and
 * where the operator edits it.
 */
export interface MailIdentity {
  /** The display name of every e-mail's sender: `"Repère" <MAIL_FROM's address>`. */
  senderName: string;
  /** The agency's name, in the header band and the footer of every e-mail. */
  agencyName: string;
  /** One line, as written on an envelope: "14 rue de la République, 69002 Lyon". */
  address: string;
  /** As read in France ("04 65 71 12 34") and as dialled from abroad ("+33465711234"). */
  phone: { display: string; dial: string };
  /** The colour of the header band and the buttons: white text on it must read (4.5:1). */
  brandColor: string;
  texts: MailTexts;
}

/**
 * The sentences of the e-mails people receive. `{prénom}` in `greeting.named` is replaced by the
 * person's first name; `{agence}` anywhere by the agency's name.
 */
export interface MailTexts {
  greeting: { named: string; anonymous: string };
  /** Before the signature: "À très vite,". */
  closing: string;
  /** The lines under the closing: a person's name, then "pour l'équipe de Repère". */
  signature: string[];
  confirmation: {
    subject: string;
    thanks: string;
    /** What happens next and when: the answer delay the site promises. */
    nextSteps: string;
    /** How to add a detail (a reply reaches the team). */
    reply: string;
  };
  optIn: {
    subject: string;
    intro: string;
    button: string;
    /** Under the button: how long the link works. */
    validity: string;
  };
}

/** `{agence}` and the given placeholders replaced in a text of the identity. */
export function fillText(
  text: string,
  identity: MailIdentity,
  values: Record<string, string> = {},
): string {
  return text.replace(/\{([\p{L}]+)\}/gu, (whole, name: string) =>
    name === 'agence' ? identity.agencyName : (values[name] ?? whole),
  );
}
