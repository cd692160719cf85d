import type { AuditRequest } from './audit-request.ts';
import type { ContactRequest } from './contact-request.ts';
import { QUESTIONNAIRES } from './questionnaires.ts';
import type { SubscribeRequest } from './subscribe-request.ts';

/*
 * One complete, valid body per action an agent can take (llms.txt, error hints, OpenAPI examples,
 * /developers): each is sent as is by a test and must answer 200.
 */
export const CONTACT_EXAMPLE: ContactRequest = {
  PRENOM: 'Marie',
  NOM: 'Dupont',
  EMAIL: 'marie.dupont@example.fr',
  JOB_TITLE: 'Avocate en droit de la famille',
  TYPE_BESOIN: 'Attirer,Convertir',
  SERVICE: 'Référencement local',
  DEMANDE: 'Je voudrais apparaître dans les résultats Google de mon quartier.',
};

/** Spec 2.1 short request: TOOL_SOURCE makes PRENOM and EMAIL the only required fields. */
export const DIAGNOSTIC_EXAMPLE: ContactRequest = {
  TOOL_SOURCE: 'diagnostic-gratuit',
  PRENOM: 'Marie',
  EMAIL: 'marie.dupont@example.fr',
  JOB_TITLE: 'Boulangerie, Lyon 7e',
  DEMANDE: 'https://boulangerie-exemple.fr et notre fiche Google « Boulangerie Exemple ».',
};

export const SUBSCRIBE_EXAMPLE: SubscribeRequest = {
  email: 'marie.dupont@example.fr',
  firstName: 'Marie',
  source: 'assistant-ia',
};

export const AUDIT_EXAMPLE: AuditRequest = {
  email: 'marie.dupont@example.fr',
  firstName: 'Marie',
  lastName: 'Dupont',
  sector: 'btp',
  formData: {
    [QUESTIONNAIRES.btp[0]!.question]: 'Couvreur',
    [QUESTIONNAIRES.btp[1]!.question]: 'Nantes et 30 km autour',
    [QUESTIONNAIRES.btp[4]!.question]: 'Oui, mais incomplète',
  },
};
