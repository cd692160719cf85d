import { SECTORS, type Sector } from './sectors.ts';

/** One question of a sector's audit questionnaire: free text, or one answer among `choices`. */
export type AuditQuestion =
  | { question: string; answer: 'text' }
  | { question: string; answer: 'choice'; choices: readonly string[] };

const text = (question: string): AuditQuestion => ({ question, answer: 'text' });
const choice = (question: string, choices: readonly string[]): AuditQuestion => ({
  question,
  answer: 'choice',
  choices,
});

/*
 * The questionnaire of each sector page, in one place: the page's form and Markdown, the JSON
 * document /secteurs/<sector>.json, the OpenAPI examples and the MCP resource all read it, and the
 * API files an answer under the question's exact text here (docs/api-decisions.md, "Questionnaires").
 * French typography: a no-break space (U+00A0) before « ? ».
 */
export const QUESTIONNAIRES: Record<Sector, readonly AuditQuestion[]> = {
  avocats: [
    text('Quels sont vos principaux domaines d’intervention\u00a0?'),
    text('Dans quelle ville ou quel ressort souhaitez-vous être trouvé\u00a0?'),
    choice('Comment exercez-vous\u00a0?', [
      'À titre individuel',
      'En cabinet de 2 à 5 avocats',
      'En cabinet de 6 avocats ou plus',
    ]),
    choice('Votre cabinet a-t-il une fiche d’établissement Google\u00a0?', [
      'Oui, et j’y ai accès',
      'Oui, mais je n’y ai pas accès',
      'Non',
      'Je ne sais pas',
    ]),
    choice('Combien d’avis Google votre cabinet a-t-il\u00a0?', [
      'Aucun',
      'Moins de 10',
      'De 10 à 50',
      'Plus de 50',
      'Je ne sais pas',
    ]),
    choice('Votre cabinet a-t-il un site internet\u00a0?', [
      'Oui, refait depuis moins de trois ans',
      'Oui, plus ancien',
      'Non',
    ]),
    choice('D’où viennent aujourd’hui la plupart de vos nouveaux clients\u00a0?', [
      'Bouche-à-oreille et recommandations',
      'Recherche sur Google',
      'Annuaires et plateformes juridiques',
      'Réseaux sociaux',
      'Autre',
    ]),
    choice('Êtes-vous titulaire d’un certificat de spécialisation\u00a0?', ['Oui', 'Non']),
    text('Avez-vous une question déontologique sur votre communication en ligne\u00a0?'),
  ],
  boutiques: [
    text('Que vendez-vous\u00a0?'),
    text('Dans quelle ville et quel quartier se trouve votre boutique\u00a0?'),
    choice('Combien de points de vente avez-vous\u00a0?', ['Un seul', 'De 2 à 5', 'Plus de 5']),
    choice('Votre boutique a-t-elle une fiche d’établissement Google à jour\u00a0?', [
      'Oui, horaires et photos à jour',
      'Oui, mais elle n’est pas à jour',
      'Non',
      'Je ne sais pas',
    ]),
    choice('Combien d’avis Google votre boutique a-t-elle\u00a0?', [
      'Aucun',
      'Moins de 20',
      'De 20 à 100',
      'Plus de 100',
      'Je ne sais pas',
    ]),
    choice('Vendez-vous en ligne\u00a0?', [
      'Oui, sur notre propre site',
      'Oui, via une place de marché ou les réseaux sociaux',
      'Non, mais nous y réfléchissons',
      'Non, ce n’est pas prévu',
    ]),
    choice('Vos produits apparaissent-ils sur Google, par exemple dans l’onglet Shopping\u00a0?', [
      'Oui',
      'Non',
      'Je ne sais pas',
    ]),
    choice(
      'Proposez-vous le retrait en magasin de commandes passées en ligne ou par téléphone\u00a0?',
      ['Oui', 'Non', 'Pas encore'],
    ),
    text('Quels sont les temps forts de votre année\u00a0?'),
    choice('Quel est votre objectif principal\u00a0?', [
      'Plus de passage en boutique',
      'Plus de ventes en ligne',
      'Faire revenir les clients actuels',
      'Faire connaître une nouvelle boutique',
    ]),
  ],
  btp: [
    text('Quel est votre métier principal\u00a0?'),
    text('Quelle est votre zone d’intervention\u00a0?'),
    choice('Recevez-vous vos clients dans des locaux\u00a0?', [
      'Oui, bureau ou showroom ouvert au public',
      'Non, nous nous déplaçons chez les clients',
    ]),
    choice('Pour qui travaillez-vous surtout\u00a0?', [
      'Des particuliers',
      'Des professionnels',
      'Des marchés publics',
      'Un peu de tout',
    ]),
    choice('Votre entreprise a-t-elle une fiche d’établissement Google\u00a0?', [
      'Oui, complète',
      'Oui, mais incomplète',
      'Non',
      'Je ne sais pas',
    ]),
    choice('Combien d’avis Google votre entreprise a-t-elle\u00a0?', [
      'Aucun',
      'Moins de 10',
      'De 10 à 50',
      'Plus de 50',
      'Je ne sais pas',
    ]),
    text('Quelles qualifications ou quels labels avez-vous\u00a0?'),
    choice('Comment trouvez-vous vos chantiers aujourd’hui\u00a0?', [
      'Bouche-à-oreille',
      'Plateformes de mise en relation',
      'Notre site et Google',
      'Sous-traitance pour d’autres entreprises',
      'Autre',
    ]),
    choice('Avez-vous des photos de vos chantiers terminés\u00a0?', [
      'Oui, beaucoup',
      'Quelques-unes',
      'Non',
    ]),
    text('Quels chantiers voulez-vous développer\u00a0?'),
  ],
};

/**
 * What a question is once the typography an agent may not reproduce is set aside: the apostrophe
 * (’ or '), the kind of space (no-break, thin, several), a space before « ? », and case.
 */
function questionKey(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u2018\u2019\u02bc\u0060\u00b4]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/ ([?!:;])/g, '$1')
    .trim()
    .toLowerCase();
}

const BY_KEY = new Map(
  Object.entries(QUESTIONNAIRES).map(([sector, questions]) => [
    sector,
    new Map(questions.map((question) => [questionKey(question.question), question])),
  ]),
);

/** The questionnaire's question an answer key means, in the sector's questionnaire (or any, without one). */
export function findQuestion(sector: Sector | undefined, key: string): AuditQuestion | undefined {
  const wanted = questionKey(key);
  const sectors = sector ? [sector] : SECTORS;
  for (const name of sectors) {
    const question = BY_KEY.get(name)?.get(wanted);
    if (question) return question;
  }
  return undefined;
}

/** Who each sector's audit is for, as the sector pages name them. */
export const SECTOR_LABELS: Record<Sector, string> = {
  avocats: 'Avocats et cabinets',
  boutiques: 'Boutiques et commerces',
  btp: 'Artisans et entreprises du BTP',
};

/** Where the JSON questionnaire of a sector is published, next to its page. */
export function questionnairePath(sector: Sector): string {
  return `/secteurs/${sector}.json`;
}

/** Answers to the first three questions of a sector (a choice, or a short text), for examples. */
export function exampleAnswers(sector: Sector): Record<string, string> {
  return Object.fromEntries(
    QUESTIONNAIRES[sector]
      .slice(0, 3)
      .map((question) => [
        question.question,
        question.answer === 'choice' ? question.choices[0]! : 'Réponse en quelques mots',
      ]),
  );
}

/**
 * The machine-readable questionnaire (/secteurs/<sector>.json, and the MCP resource): the questions
 * with their kind of answer and choices, and how to send the answers.
 */
export function questionnaireDocument(sector: Sector, siteUrl: string) {
  return {
    sector,
    title: `Questionnaire d’audit de visibilité : ${SECTOR_LABELS[sector]}`,
    page: `${siteUrl}/secteurs/${sector}`,
    submit: {
      endpoint: `POST ${siteUrl}/api/audit`,
      mcpTool: 'submit_sector_audit',
      instructions:
        'Envoyez sector, email et firstName (obligatoires), et formData : chaque clé est le texte d’une question ci-dessous, chaque valeur la réponse de la personne (pour une question à choix, l’un des choix). Toutes les questions sont facultatives. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
      example: {
        email: 'marie.dupont@example.fr',
        firstName: 'Marie',
        sector,
        formData: exampleAnswers(sector),
      },
    },
    questions: QUESTIONNAIRES[sector],
  };
}
