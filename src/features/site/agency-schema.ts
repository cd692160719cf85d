import { Type, type Static, type TSchema } from 'typebox';
import { LEAD_KINDS } from '../../kernel/schemas/lead-kinds.ts';
import { SECTORS, type Sector } from '../../kernel/schemas/sectors.ts';

/**
 * The shape of site/agency.yaml (docs/site.md, "L'identité de l'agence"): the types of
 * src/features/site/agency.ts come from it and the loader validates the file with it. `message` is
 * the French sentence shown when a value breaks the rule (src/features/site/agency-errors.ts),
 * after the line and the field's name.
 */
const text = (message = 'doit être un texte non vide') =>
  Type.String({ minLength: 1, pattern: '\\S', message });

/** A file of the images/ folder next to the identity file (docs/site.md, "Images"). */
const imageFile = (extensions: string, message: string) =>
  Type.String({ pattern: `^[^/\\\\]+\\.(${extensions})$`, message });

const picture = Type.Object(
  {
    file: imageFile(
      'png|jpe?g|webp',
      'doit être le nom d’une image PNG, JPEG ou WebP du dossier images/ (ex. « claire.jpg »)',
    ),
    alt: text('doit décrire l’image pour qui ne la voit pas (texte alternatif obligatoire)'),
  },
  { additionalProperties: false },
);

const servicePage = Type.String({
  pattern: '^[a-z0-9-]+$',
  message:
    'doit être la fin de l’adresse d’une page de service, en minuscules (ex. « site-sur-mesure »)',
});

const sectorList = Type.Array(
  Type.Unsafe<Sector>(
    Type.Union(
      SECTORS.map((sector) => Type.Literal(sector)),
      { message: `doit être l’un des secteurs ${SECTORS.join(', ')}` },
    ),
  ),
);

export const PostalAddressSchema = Type.Object(
  {
    street: text(),
    postalCode: Type.String({
      pattern: '^\\d{5}$',
      message: "doit être un code postal de 5 chiffres, entre apostrophes (ex. « '69002' »)",
    }),
    locality: text(),
    country: text(),
  },
  { additionalProperties: false },
);

export const PersonSchema = Type.Object(
  {
    name: text(),
    role: text(),
    /** One sentence a prospective client reads: experience, what this person does for them. */
    bio: text(),
    photo: Type.Optional(picture),
  },
  { additionalProperties: false },
);

export const ReferenceSchema = Type.Object(
  {
    client: text(),
    /** Sector and town, as a client would say it: "Cabinet d’avocats, Lyon 3e". */
    context: text(),
    /** What changed, with a figure when there is one. */
    result: text(),
    /** The sectors and service pages this reference proves: the pages that show it. */
    sectors: Type.Optional(sectorList),
    services: Type.Optional(Type.Array(servicePage)),
    /** The site the agency made or improved, when the client agrees to show it. */
    url: Type.Optional(
      Type.String({ pattern: '^https://\\S+$', message: 'doit être une adresse https://…' }),
    ),
    screenshot: Type.Optional(picture),
  },
  { additionalProperties: false },
);

export const PriceRangeSchema = Type.Object(
  {
    service: text(),
    /** As displayed: "à partir de 2 400 € HT", or "gratuit". */
    price: text(),
    includes: text(),
    /**
     * The pages that state this price (docs/site.md, "Tarifs"): these service pages, and the sector
     * pages whose audit it is (every sector's audit has exactly one price,
     * src/features/site/agency.ts).
     */
    services: Type.Optional(Type.Array(servicePage)),
    sectors: Type.Optional(sectorList),
  },
  { additionalProperties: false },
);

/** docs/emails.md, « La réponse de l’équipe »: the placeholders an answer template may use. */
export const ANSWER_PLACEHOLDERS = ['prénom', 'service', 'agence'] as const;

const answerText = Type.String({
  minLength: 1,
  pattern: `^(?:[^{}]|\\{(?:${ANSWER_PLACEHOLDERS.join('|')})\\})*$`,
  message: `doit être un texte dont les seules accolades sont ${ANSWER_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`,
});

/**
 * One answer template of the lead page's composer (docs/workspace.md, « Répondre »): offered for
 * the lead kinds named, and, when set, only for these audited sectors or a requested service
 * containing one of these words.
 */
export const AnswerTemplateSchema = Type.Object(
  {
    title: text(),
    kinds: Type.Array(
      Type.Union(
        LEAD_KINDS.filter((kind) => kind.confirmsToSender).map((kind) => Type.Literal(kind.kind)),
        { message: 'doit être un type de demande qui attend une réponse (contact, audit)' },
      ),
      { minItems: 1, message: 'doit nommer au moins un type de demande' },
    ),
    sectors: Type.Optional(sectorList),
    services: Type.Optional(Type.Array(text())),
    subject: answerText,
    text: answerText,
  },
  { additionalProperties: false },
);

export const AgencySchema = Type.Object(
  {
    name: text(),
    tagline: text(),
    /** Two or three sentences: the JSON-LD description and the llms.txt summary. */
    summary: text(),
    /** The logo, a file of images/: SVG, or PNG at least 64 px high. */
    logo: imageFile('svg|png', 'doit être le nom d’un fichier SVG ou PNG du dossier images/'),
    /**
     * Buttons, links, borders: checked against white text (WCAG AA,
     * src/features/site/agency-colors.ts).
     */
    brandColor: Type.String({
      pattern: '^#[0-9a-fA-F]{6}$',
      message: "doit être une couleur écrite #rrggbb, entre apostrophes (ex. « '#1d4ed8' »)",
    }),
    legal: Type.Object(
      {
        companyName: text(),
        legalForm: text(),
        /** Share capital as displayed, with its currency: "5 000 €". */
        capital: text(),
        siret: Type.String({
          pattern: '^\\d{3} ?\\d{3} ?\\d{3} ?\\d{5}$',
          message: 'doit être un SIRET de 14 chiffres (ex. « 912 345 678 00014 »)',
        }),
        /** "RCS Lyon 912 345 678". */
        registration: text(),
        vatNumber: text(),
        address: PostalAddressSchema,
      },
      { additionalProperties: false },
    ),
    contact: Type.Object(
      {
        email: Type.String({
          pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
          message: 'doit être une adresse e-mail (ex. « bonjour@agence.fr »)',
        }),
        /** As dialled from abroad, for tel: links and JSON-LD: "+33465711234". */
        phone: Type.String({
          pattern: '^\\+\\d{6,15}$',
          message:
            "doit être le numéro au format international, sans espace, entre apostrophes (ex. « '+33465711234' »)",
        }),
        /** As read in France: "04 65 71 12 34". */
        phoneDisplay: text(),
        hours: text(),
      },
      { additionalProperties: false },
    ),
    publicationDirector: Type.Object(
      { name: text(), role: text() },
      { additionalProperties: false },
    ),
    host: Type.Object(
      { name: text(), address: text(), phone: text() },
      { additionalProperties: false },
    ),
    /** The e-mails sent in the agency's name. */
    mail: Type.Object(
      {
        /** The From name: "Repère, agence web" <MAIL_FROM's address>. */
        senderName: text(),
        /** The closing lines of every e-mail a person receives. */
        signature: text(),
        /**
         * The words of the e-mails (docs/emails.md): src/kernel/mail/mail-identity.ts, MailTexts.
         */
        greeting: Type.Object(
          {
            named: Type.String({
              pattern: '\\{prénom\\}',
              message:
                'doit contenir {prénom}, remplacé par le prénom de la personne (ex. « Bonjour {prénom}, »)',
            }),
            anonymous: text(),
          },
          { additionalProperties: false },
        ),
        closing: text(),
        confirmation: Type.Object(
          { subject: text(), thanks: text(), nextSteps: text(), reply: text() },
          { additionalProperties: false },
        ),
        optIn: Type.Object(
          { subject: text(), intro: text(), button: text(), validity: text() },
          { additionalProperties: false },
        ),
        /** The composer's answer templates (docs/workspace.md, « Répondre »). */
        answers: Type.Optional(Type.Array(AnswerTemplateSchema)),
      },
      { additionalProperties: false },
    ),
    /** Where the clients' reviews are read (a Google profile…), linked beside the rating. */
    reviews: Type.Optional(
      Type.Object(
        {
          url: Type.String({
            pattern: '^https://\\S+$',
            message: 'doit être une adresse https://…',
          }),
          label: text(),
        },
        { additionalProperties: false },
      ),
    ),
    team: Type.Array(PersonSchema, { minItems: 1, message: 'doit nommer au moins une personne' }),
    references: Type.Array(ReferenceSchema),
    /** Short figures for the proof blocks: "38 clients accompagnés". */
    figures: Type.Array(
      Type.Object({ value: text(), label: text() }, { additionalProperties: false }),
    ),
    prices: Type.Array(PriceRangeSchema),
  },
  { additionalProperties: false },
);

export type Agency = Static<typeof AgencySchema>;
export type PostalAddress = Static<typeof PostalAddressSchema>;
export type Person = Static<typeof PersonSchema>;
export type Reference = Static<typeof ReferenceSchema>;
export type PriceRange = Static<typeof PriceRangeSchema>;
export type Picture = Static<typeof picture>;
export type AnswerTemplate = Static<typeof AnswerTemplateSchema>;
export type { TSchema };
