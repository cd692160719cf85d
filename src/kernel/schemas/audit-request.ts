import { Type, type Static } from 'typebox';
import { consentProperty } from './consent.ts';
import { emailAddress, optionalPhone, optionalText, requiredText } from './fields.ts';
import { exampleAnswers } from './questionnaires.ts';
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
      phone: optionalPhone(
        'Téléphone',
        'Téléphone (lu comme un numéro français, sauf s’il commence par + et son indicatif).',
        ['06 12 34 56 78'],
      ),
      sector: Type.Optional(
        Type.Enum(sectors, { type: 'string', title: 'Secteur', description: 'Secteur audité.' }),
      ),
      formData: Type.Optional(
        Type.Record(Type.String(), Type.String(), {
          title: 'Réponses au questionnaire',
          maxProperties: FORM_DATA_MAX_ANSWERS,
          description:
            'Réponses au questionnaire du secteur (50 au plus) (publié en JSON sur /secteurs/<secteur>.json) : chaque clé est le texte d’une question, chaque valeur la réponse ; une question écrite avec une autre apostrophe ou une autre espace est reconnue ; une question presque exacte (ponctuation, accents, casse) est rangée sous la vraie question avec un avertissement `question_matched` ; une clé inconnue est gardée et signalée à l’agence. Dans un formulaire HTML, chaque réponse voyage sous la clé `formData[Question]`.',
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
