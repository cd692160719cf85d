import type { TSchema } from 'typebox';
import type { LeadKind } from '../domain/lead.ts';
import { AuditRequestSchema } from './audit-request.ts';
import { ContactRequestSchema } from './contact-request.ts';
import { SubscribeRequestSchema } from './subscribe-request.ts';

export interface LeadEndpoint {
  kind: LeadKind;
  path: string;
  operationId: string;
  schemaName: string;
  schema: TSchema;
  summary: string;
  description: string;
}

/** The three endpoints of spec section 4, in one table that the routes, /openapi.json and /developers read. */
export const LEAD_ENDPOINTS: readonly LeadEndpoint[] = [
  {
    kind: 'contact',
    path: '/api/contact',
    operationId: 'submitContactRequest',
    schemaName: 'ContactRequest',
    schema: ContactRequestSchema,
    summary: 'Envoyer une demande de contact ou de diagnostic gratuit',
    description:
      'Demande de site sur mesure, de fiche d’établissement Google, de référencement local, de visibilité dans les moteurs IA ou de diagnostic gratuit. Effet : un e-mail de confirmation part aussitôt vers EMAIL ; une personne répond sous 24 heures ouvrées. Sans TOOL_SOURCE, PRENOM, NOM, EMAIL, JOB_TITLE, TYPE_BESOIN, SERVICE et DEMANDE sont obligatoires ; avec TOOL_SOURCE, seuls PRENOM et EMAIL le sont. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
  },
  {
    kind: 'subscribe',
    path: '/api/subscribe',
    operationId: 'subscribeNewsletter',
    schemaName: 'SubscribeRequest',
    schema: SubscribeRequestSchema,
    summary: 'Inscrire une adresse à la lettre mensuelle',
    description:
      'Inscrit l’adresse à la lettre mensuelle (un conseil concret par mois). Une adresse déjà inscrite n’est pas une erreur : la réponse est un succès avec existing: true. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
  },
  {
    kind: 'audit',
    path: '/api/audit',
    operationId: 'submitSectorAudit',
    schemaName: 'AuditRequest',
    schema: AuditRequestSchema,
    summary: 'Demander un audit de visibilité sectoriel',
    description:
      'Enregistre une demande d’audit de présence en ligne pour un cabinet d’avocats, une boutique ou une entreprise du BTP, avec les réponses du questionnaire de la page du secteur. existing vaut true quand l’adresse est déjà connue. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
  },
];
