import { Type, type Static } from 'typebox';
import { emailAddress, optionalText, requiredText } from './fields.ts';

export const SECTORS = ['avocats', 'boutiques', 'btp'] as const;

export const AuditRequestSchema = Type.Object(
  {
    email: emailAddress('Adresse de la personne qui demande l’audit.'),
    firstName: requiredText(100, 'Prénom.', ['Marie']),
    lastName: optionalText(100, 'Nom.', ['Dupont']),
    phone: optionalText(30, 'Téléphone.', ['06 12 34 56 78']),
    sector: Type.Optional(Type.Enum(SECTORS, { type: 'string', description: 'Secteur audité.' })),
    formData: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description:
          'Réponses au questionnaire : chaque clé est une question, chaque valeur la réponse. Dans un formulaire HTML, chaque réponse voyage sous la clé `formData[Question]`.',
        examples: [{ 'Combien d’avis Google avez-vous ?': 'Une dizaine' }],
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Demande d’audit de visibilité pour un secteur, avec les réponses du questionnaire.',
  },
);

export type AuditRequest = Static<typeof AuditRequestSchema>;
