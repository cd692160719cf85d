import { Type } from 'typebox';

/** A consent wording: the exact text a person agreed to, under a stable version name. */
export interface ConsentWording {
  version: string;
  /** The lead kinds this text covers (a plain string: the request schemas import this file). */
  kinds: readonly string[];
  /** Plain text, exactly as the form shows it next to its submit button; its SHA-256 is its identity. */
  text: string;
}

/*
 * Published wordings, oldest first. A wording that was ever shown is never edited (the hash in the
 * journal must keep pointing at the text the person read): a new text is a new version, appended,
 * and becomes the current one for its kinds. docs/consent.md says how to add one.
 */
export const CONSENT_WORDINGS: readonly ConsentWording[] = [
  {
    version: 'demande-2026-11',
    kinds: ['contact', 'audit'],
    text: 'J’envoie cette demande pour moi-même, ou avec l’accord explicite de la personne concernée, et j’accepte que l’agence utilise ces informations pour y répondre, comme le décrit sa politique de confidentialité.',
  },
  {
    version: 'lettre-2026-11',
    kinds: ['subscribe'],
    text: 'J’accepte de recevoir la lettre mensuelle de l’agence à cette adresse ; je peux retirer mon accord à tout moment en écrivant à l’agence, comme le décrit la politique de confidentialité.',
  },
  {
    // The site typesets French (a no-break space before « ; »): the stored text is what the form shows.
    // It also names the unsubscribe link every letter now carries (docs/consent.md).
    version: 'lettre-2026-12',
    kinds: ['subscribe'],
    text: 'J’accepte de recevoir la lettre mensuelle de l’agence à cette adresse\u00a0; je peux retirer mon accord à tout moment, par le lien de désinscription de chaque lettre ou en écrivant à l’agence, comme le décrit la politique de confidentialité.',
  },
];

/** Who collected the consent: the site's form, a program calling the API, or an AI agent. */
export const CONSENT_CHANNELS = ['form', 'api', 'agent', 'mcp'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

export function wordingsFor(kind: string): ConsentWording[] {
  return CONSENT_WORDINGS.filter((wording) => wording.kinds.includes(kind));
}

/** The wording the site shows today, and the one recorded for an API call that names none. */
export function currentWording(kind: string): ConsentWording {
  const wording = wordingsFor(kind).at(-1);
  if (!wording) throw new Error(`No consent wording covers "${kind}" requests`);
  return wording;
}

/**
 * The optional `consent` object of each request: which wording the person agreed to. A caller that
 * sends none is recorded as having obtained the current wording through the API (docs/consent.md).
 */
export function consentProperty(kind: string) {
  const current = currentWording(kind);
  return Type.Optional(
    Type.Object(
      {
        version: Type.Enum(
          wordingsFor(kind).map((wording) => wording.version),
          {
            type: 'string',
            description: `Version du texte de consentement présenté à la personne et accepté par elle (texte de la version actuelle, ${current.version} : « ${current.text} »).`,
          },
        ),
        channel: Type.Optional(
          Type.Enum(['form', 'api', 'agent'], {
            type: 'string',
            description:
              'Qui a recueilli l’accord : form (un formulaire du site), api (un programme ; valeur par défaut en JSON) ou agent (un assistant IA agissant pour la personne). Un formulaire HTML envoyé sans ce champ compte comme form.',
          }),
        ),
        page: Type.Optional(
          Type.String({
            maxLength: 300,
            description: 'Page ou écran où le texte a été présenté (chemin ou adresse).',
          }),
        ),
      },
      {
        additionalProperties: false,
        title: 'Consentement',
        description:
          'Preuve du consentement : le texte que la personne a accepté. Facultatif ; absent, la version actuelle est enregistrée avec le canal api.',
        examples: [{ version: current.version, channel: 'agent' }],
      },
    ),
  );
}
