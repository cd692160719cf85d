import { Type, type Static } from 'typebox';
import { consentProperty } from './consent.ts';
import { emailAddress, optionalText, requiredText } from './fields.ts';
import { exampleAnswers } from './questionnaires.ts';
import type { LeadKindDescriptor } from './lead-kinds.ts';
import { AUDIT_EXAMPLE } from './examples.ts';
import { sectorValues, type SectorDescriptor } from './sector-descriptors.ts';
import { SECTORS } from './sectors.ts';

/** A questionnaire has a dozen questions; the cap keeps a request from carrying thousands of keys. */
export const FORM_DATA_MAX_ANSWERS = 50;

/** The audit's body for these sectors (spec 2.3): `sector` takes one of their values. */
export function auditRequestSchema<const S extends readonly string[]>(sectors: S) {
  return Type.Object(
    {
      email: emailAddress('Adresse de la personne qui demande l’audit.'),
      firstName: requiredText('Prénom', 100, 'Prénom.', ['Marie']),
      lastName: optionalText('Nom', 100, 'Nom.', ['Dupont']),
      phone: optionalText('Téléphone', 30, 'Téléphone.', ['06 12 34 56 78']),
      sector: Type.Optional(
        Type.Enum(sectors, { type: 'string', title: 'Secteur', description: 'Secteur audité.' }),
      ),
      formData: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          title: 'Réponses au questionnaire',
          maxProperties: FORM_DATA_MAX_ANSWERS,
          description:
            'Réponses au questionnaire du secteur (50 au plus) (publié en JSON sur /secteurs/<secteur>.json) : chaque clé est le texte d’une question, chaque valeur la réponse ; une question écrite avec une autre apostrophe ou une autre espace est reconnue, une clé inconnue est gardée et signalée à l’agence. Dans un formulaire HTML, chaque réponse voyage sous la clé `formData[Question]`.',
          examples: SECTORS.map((sector) => exampleAnswers(sector)),
        }),
      ),
      consent: consentProperty('audit'),
    },
    {
      additionalProperties: false,
      description:
        'Demande d’audit de visibilité pour un secteur, avec les réponses du questionnaire.',
    },
  );
}

export const AuditRequestSchema = auditRequestSchema(SECTORS);

export type AuditRequest = Static<typeof AuditRequestSchema>;

/**
 * The audit endpoint's descriptor (src/schemas/lead-kinds.ts) for these sectors: its description
 * and its MCP tool's name the sectors it audits, so a new sector reaches /openapi.json and MCP.
 */
export function auditKind<S extends ReturnType<typeof auditRequestSchema>>(
  schema: S,
  sectors: readonly SectorDescriptor[],
): LeadKindDescriptor<'audit', S> {
  const values = sectorValues(sectors);
  return {
    kind: 'audit',
    schema,
    schemaName: 'AuditRequest',
    path: '/api/audit',
    operationId: 'submitSectorAudit',
    example: AUDIT_EXAMPLE as LeadKindDescriptor<'audit', S>['example'],
    tool: {
      name: 'submit_sector_audit',
      english: `Request an online-visibility audit for one of the ${sectors.length} sectors (sector: ${values.replace(/ ou /, ' or ')}): email and firstName required; formData maps each question of the sector’s questionnaire (read the questionnaire resource, exact texts) to the person’s answer. Only with the explicit consent of the person concerned.`,
    },
    thankYouPath: '/secteurs/merci',
    summary: 'Demander un audit de visibilité sectoriel',
    description: `Enregistre une demande d’audit de présence en ligne pour l’un des secteurs ${values} (${sectors.map(({ sector, label }) => `${sector} : ${label.toLowerCase()}`).join(' ; ')}), avec les réponses du questionnaire de la page du secteur. existing vaut true quand l’adresse est déjà connue. À n’envoyer qu’avec l’accord explicite de la personne concernée.`,
    fields: {
      email: 'email',
      firstName: 'firstName',
      lastName: 'lastName',
      phone: 'phone',
      subjectDetail: 'sector',
    } as LeadKindDescriptor<'audit', S>['fields'],
    questionnaire: { answers: 'formData', sector: 'sector' } as LeadKindDescriptor<
      'audit',
      S
    >['questionnaire'],
    answersExisting: true,
    confirmsToSender: false,
    notificationTitle: 'Nouvelle demande d’audit',
    brevoList: { setting: 'auditListId', variable: 'BREVO_AUDIT_LIST_ID', required: false },
  };
}
