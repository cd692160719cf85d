import { Type, type Static } from 'typebox';
import { consentProperty } from './consent.ts';
import { emailAddress, optionalText, requiredText } from './fields.ts';

export const SubscribeRequestSchema = Type.Object(
  {
    email: emailAddress('Adresse à inscrire à la newsletter.'),
    firstName: requiredText('Prénom', 100, 'Prénom.', ['Marie']),
    lastName: optionalText('Nom', 100, 'Nom.', ['Dupont']),
    source: optionalText(
      'Origine de l’inscription',
      100,
      'Origine de l’inscription (libellé court).',
      ['page-accueil'],
    ),
    consent: consentProperty('subscribe'),
  },
  {
    additionalProperties: false,
    description: 'Inscription à la newsletter (un conseil concret par mois).',
  },
);

export type SubscribeRequest = Static<typeof SubscribeRequestSchema>;
