import { Type, type Static } from 'typebox';
import Value from 'typebox/value';
import { parseDocument } from 'yaml';
import { SECTORS, type Sector } from '../../kernel/schemas/sectors.ts';
import { fieldName, lineOf, schemaMessage, type SchemaProblem } from './agency-errors.ts';

/**
 * A « Réalisation »: one page of site/content/realisations/, its facts in the front matter under
 * `case:` (docs/site.md, "Réalisations"), its screenshots in site/content/realisations/images/.
 */
const text = (message = 'doit être un texte non vide') =>
  Type.String({ minLength: 1, pattern: '\\S', message });

export const CaseStudySchema = Type.Object(
  {
    client: text(),
    sector: Type.Unsafe<Sector>(
      Type.Union(
        SECTORS.map((sector) => Type.Literal(sector)),
        { message: `doit être l’un des secteurs ${SECTORS.join(', ')}` },
      ),
    ),
    /** The service pages it proves: the end of their path ("site-sur-mesure"). */
    services: Type.Array(
      Type.String({
        pattern: '^[a-z0-9-]+$',
        message: 'doit être la fin de l’adresse d’une page de service (ex. « site-sur-mesure »)',
      }),
      { minItems: 1, message: 'doit nommer au moins un service' },
    ),
    /** Where the client stood: one or two sentences. */
    problem: text(),
    /** What the agency did. */
    done: text(),
    /** The result a visitor remembers: value "×4", label "demandes de devis par mois". */
    figure: Type.Object({ value: text(), label: text() }, { additionalProperties: false }),
    screenshots: Type.Array(
      Type.Object(
        {
          file: Type.String({
            pattern: '^[^/\\\\]+\\.(png|jpe?g|webp)$',
            message: 'doit être le nom d’une image PNG, JPEG ou WebP de realisations/images/',
          }),
          alt: text(
            'doit décrire la capture pour qui ne la voit pas (texte alternatif obligatoire)',
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, message: 'doit lister au moins une capture' },
    ),
    url: Type.Optional(
      Type.String({ pattern: '^https://\\S+$', message: 'doit être une adresse https://…' }),
    ),
  },
  { additionalProperties: false },
);

export type CaseStudy = Static<typeof CaseStudySchema>;

/**
 * The `case:` block of a page, checked; a problem is `source, ligne N : case.field : message`
 * (the same sentences as the identity file's).
 */
export function parseCaseStudy(
  source: string,
  raw: string,
  data: unknown,
  fail: (message: string) => never,
): CaseStudy {
  const problems = [...Value.Errors(CaseStudySchema, data)] as SchemaProblem[];
  if (!problems.length) return data as CaseStudy;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(raw)?.[1] ?? '';
  const doc = parseDocument(frontMatter);
  const found = problems
    .map((problem) => schemaMessage(CaseStudySchema, problem))
    .map((entry) => ({
      ...entry,
      // The front matter starts on the file's second line.
      line: lineOf(doc, frontMatter, ['case', ...entry.path]) + 1,
    }))
    .sort((a, b) => a.rank - b.rank || a.line - b.line)[0]!;
  return fail(
    `${source}, ligne ${found.line} : ${fieldName(['case', ...found.path])} : ${found.message}`,
  );
}
