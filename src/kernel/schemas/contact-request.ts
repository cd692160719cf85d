import { Type, type Static } from 'typebox';
import { consentProperty } from './consent.ts';
import { emailAddress, optionalText, requiredText } from './fields.ts';

/** Fields a full contact form must carry; a short request (TOOL_SOURCE present) may omit them (spec 2.1). */
export const FULL_FORM_FIELDS = ['NOM', 'JOB_TITLE', 'TYPE_BESOIN', 'SERVICE', 'DEMANDE'] as const;

export const ContactRequestSchema = Type.Object(
  {
    PRENOM: requiredText('Prénom', 100, 'Prénom de la personne qui écrit.', ['Marie']),
    EMAIL: emailAddress('Adresse à laquelle répondre ; elle reçoit un e-mail de confirmation.'),
    NOM: optionalText('Nom', 100, 'Nom. Obligatoire sauf si TOOL_SOURCE est présent.', ['Dupont']),
    JOB_TITLE: optionalText(
      'Métier ou activité',
      200,
      'Métier ou activité. Obligatoire sauf si TOOL_SOURCE est présent.',
      ['Avocate en droit de la famille'],
    ),
    TYPE_BESOIN: optionalText(
      'Piliers concernés',
      200,
      'Piliers concernés, séparés par des virgules, parmi Attirer, Engager, Convertir. Obligatoire sauf si TOOL_SOURCE est présent.',
      ['Attirer,Convertir'],
    ),
    SERVICE: optionalText(
      'Service souhaité',
      200,
      'Service souhaité, en mots simples. Obligatoire sauf si TOOL_SOURCE est présent.',
      ['Référencement local'],
    ),
    DEMANDE: optionalText(
      'Projet',
      5000,
      'Description du projet. Obligatoire sauf si TOOL_SOURCE est présent.',
      ['Je voudrais apparaître dans les résultats Google de mon quartier.'],
    ),
    SMS: optionalText('Téléphone', 30, 'Numéro de téléphone, sans indicatif pays.', ['612345678']),
    SMS__COUNTRY_CODE: optionalText(
      'Indicatif du téléphone',
      6,
      'Indicatif pays du numéro, par exemple +33.',
      ['+33'],
    ),
    TOOL_SOURCE: optionalText(
      'Origine de la demande',
      100,
      'Origine d’une demande courte (outil, diagnostic). Présent : seuls PRENOM et EMAIL sont obligatoires.',
      ['diagnostic-gratuit'],
    ),
    TOOL_DATA: optionalText(
      'Données de l’outil',
      20000,
      'Résultats de l’outil, en JSON sérialisé dans une chaîne.',
      ['{"score":42}'],
    ),
    consent: consentProperty('contact'),
  },
  {
    additionalProperties: false,
    description:
      'Demande de contact ou de diagnostic gratuit. Formulaire complet : PRENOM, NOM, EMAIL, JOB_TITLE, TYPE_BESOIN, SERVICE, DEMANDE. Demande courte : TOOL_SOURCE, PRENOM, EMAIL.',
    // An empty TOOL_SOURCE, like any empty input (a blank form field), counts as absent; and an
    // empty full-form field counts as missing, as the required PRENOM does (docs/api-decisions.md).
    if: {
      not: { required: ['TOOL_SOURCE'], properties: { TOOL_SOURCE: { minLength: 1 } } },
    },
    then: {
      required: [...FULL_FORM_FIELDS],
      properties: Object.fromEntries(FULL_FORM_FIELDS.map((field) => [field, { minLength: 1 }])),
    },
  },
);

export type ContactRequest = Static<typeof ContactRequestSchema>;
