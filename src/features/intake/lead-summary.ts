import { frenchCount } from '../../kernel/lead/french-count.ts';
import { questionnaireSector } from './audit-answers.ts';
import type { Lead } from '../../kernel/lead/lead.ts';
import { fieldLabel, sectorLabel } from '../../kernel/schemas/field-labels.ts';
import { answersField, type LeadKindDescriptor } from '../../kernel/schemas/lead-kinds.ts';
import { isOneLineField, mailtoHref, oneLine, telHref } from '../../kernel/schemas/one-line.ts';
import { findQuestion } from '../../kernel/schemas/questionnaires.ts';
import { requestPhone } from '../../kernel/schemas/phone-number.ts';
import type { FieldRow } from '../../kernel/mail/mail-blocks.ts';

/** An answer the questionnaire has no question for: kept (spec 2.3), but the agency is told. */
export const OFF_QUESTIONNAIRE = 'question hors questionnaire';

/**
 * The consent proof is shown as such, not as a field (src/features/intake/notification-email.ts).
 */
const NOT_A_FIELD = 'consent';

/**
 * The lead's text fields, who the person is first (first and last name, address, phone), then the
 * others in the schema's order; empty ones, the answers and the consent proof left out.
 */
function textFields(lead: Lead, kind: LeadKindDescriptor): [string, string][] {
  const data = lead.data as Record<string, unknown>;
  const { firstName, lastName, email, phone } = kind.fields;
  const names = new Set(
    [
      firstName,
      lastName,
      email,
      phone,
      ...Object.keys(kind.schema.properties),
      ...Object.keys(data),
    ].filter((name): name is string => name !== undefined),
  );
  return [...names].flatMap((name) => {
    const value = data[name];
    return name !== NOT_A_FIELD && typeof value === 'string' && value !== ''
      ? [[name, value] as [string, string]]
      : [];
  });
}

/** Every field for the agency, under its French label (src/kernel/schemas/field-labels.ts). */
export function agencyRows(lead: Lead, kind: LeadKindDescriptor): FieldRow[] {
  return textFields(lead, kind).flatMap(([name, value]): FieldRow[] => {
    const label = fieldLabel(kind, name);
    if (name === kind.fields.phoneCountryCode) return [];
    if (name === kind.fields.email) {
      const href = mailtoHref(value);
      return [{ label, value: oneLine(value), ...(href && { href }) }];
    }
    if (name === kind.fields.phone) {
      // docs/api-decisions.md, "Phone numbers": the link dials the number's E.164 form.
      const phone = requestPhone(lead.data, kind.fields);
      if (!phone) return [];
      const href = phone.dial ? telHref(phone.dial) : undefined;
      return [{ label, value: oneLine(phone.display), ...(href && { href }) }];
    }
    if (name === kind.questionnaire?.sector) return [{ label, value: sectorLabel(value) }];
    const schema = (kind.schema.properties as Record<string, { maxLength?: number }>)[name];
    return [{ label, value: isOneLineField(schema) ? oneLine(value) : value }];
  });
}

/** The questionnaire's answers under their questions; an unknown question is marked. */
export function answerRows(lead: Lead, kind: LeadKindDescriptor): FieldRow[] {
  const answers = answersField(lead.data, kind.questionnaire?.answers);
  if (!answers) return [];
  const sector = questionnaireSector(lead, kind);
  return Object.entries(answers).map(([question, answer]) => ({
    label: question,
    value: String(answer),
    ...(findQuestion(sector, question)?.question !== question && { note: OFF_QUESTIONNAIRE }),
  }));
}

/*
 * What the confirmation may repeat of what a stranger typed (docs/api-decisions.md): it goes to an
 * address nobody has verified, and a form that mails any text to any address is a spam relay. A
 * short text of letters only (a name, a trade, « Attirer, Convertir ») can carry no link, address,
 * phone number or price, so it is repeated; anything else is acknowledged by its length only.
 */
const HARMLESS = /^[\p{L}\p{M}][\p{L}\p{M} '’,.-]*$/u;
/** A dot between letters is a domain name (« spam.example »), not a name's initial. */
const DOMAIN_LIKE = /\.\p{L}|www/iu;

/** `value` when it is harmless and at most `max` characters long. */
export function harmlessText(value: string, max: number): string | undefined {
  const text = value.trim().replace(/\s+/g, ' ');
  if (Array.from(text).length > max || !HARMLESS.test(text) || DOMAIN_LIKE.test(text)) {
    return undefined;
  }
  return text.replace(/,(?=\S)/g, ', ');
}

const characters = (value: string) => {
  const count = Array.from(value.trim()).length;
  // « 4 812 »: French grouping by hand; Intl's number formatter costs 20 ms to build.
  const grouped = String(count).replace(/\B(?=(\d{3})+$)/g, '\u00a0');
  return `votre texte de ${grouped} caractère${count > 1 ? 's' : ''}`;
};

/** What the confirmation lists as received: labels, and only values that cannot carry an ad. */
export function senderRows(lead: Lead, kind: LeadKindDescriptor): FieldRow[] {
  const origin = new Set<string>(kind.fields.origin ?? []);
  const rows = textFields(lead, kind).flatMap(([name, value]): FieldRow[] => {
    if (origin.has(name) || name === kind.fields.phoneCountryCode) return [];
    const label = fieldLabel(kind, name);
    // The recipient's own address: it is already in the To: of this very e-mail.
    if (name === kind.fields.email) return [{ label, value }];
    if (name === kind.fields.phone) {
      const digits = value.replace(/\D/g, '');
      return [{ label, value: digits ? `numéro se terminant par ${digits.slice(-2)}` : 'reçu' }];
    }
    if (name === kind.questionnaire?.sector) return [{ label, value: sectorLabel(value) }];
    return [{ label, value: harmlessText(value, 60) ?? characters(value) }];
  });
  const answers = answersField(lead.data, kind.questionnaire?.answers);
  const count = answers ? Object.keys(answers).length : 0;
  if (count > 0 && kind.questionnaire) {
    rows.push({
      label: fieldLabel(kind, kind.questionnaire.answers),
      value: frenchCount(count, 'réponse'),
    });
  }
  return rows;
}
