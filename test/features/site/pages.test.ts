import { describe, expect, it } from 'vitest';
import { renderMarkdown, absoluteLinks } from '../../../src/features/site/markdown.ts';
import { ContentError, parsePage, urlPathOf } from '../../../src/features/site/pages.ts';
import { QUESTIONNAIRES } from '../../../src/kernel/schemas/questionnaires.ts';

const page = (frontMatter: string, body = 'Texte.') => `---\n${frontMatter}\n---\n\n${body}\n`;
const valid = 'title: "Titre"\ndescription: "Résumé."\nupdated: 2026-11-20';

describe('content contract of site/content (docs/site.md)', () => {
  it.each([
    ['index.md', '/'],
    ['contact/index.md', '/contact'],
    ['contact/merci.md', '/contact/merci'],
    ['404.md', '/404'],
    ['services/site-sur-mesure.md', '/services/site-sur-mesure'],
  ])('%s is served at %s', (source, path) => {
    expect(urlPathOf(source)).toBe(path);
  });

  it('reads the front matter, with an unquoted YAML date as YYYY-MM-DD', () => {
    const parsed = parsePage('a.md', page(`${valid}\nnoindex: true\nnewsletter: true`));
    expect(parsed).toMatchObject({
      path: '/a',
      title: 'Titre',
      updated: '2026-11-20',
      noindex: true,
      newsletter: true,
    });
  });

  it('gives a sector page its audit form and the questionnaire of its sector', () => {
    const parsed = parsePage('secteurs/btp.md', page(`${valid}\nsector: btp`));
    expect(parsed.form).toBe('audit');
    expect(parsed.questions).toBe(QUESTIONNAIRES.btp);
  });

  it.each([
    ['a missing title', 'description: "x"\nupdated: 2026-11-20'],
    ['a malformed date', 'title: "x"\ndescription: "x"\nupdated: "20/11/2026"'],
    ['an unknown form', `${valid}\nform: devis`],
    ['an unknown sector', `${valid}\nsector: medecins`],
    [
      'questions written in the page (they live in src/kernel/schemas/questionnaires.ts)',
      `${valid}\nsector: btp\nquestions:\n  - question: "Combien ?"`,
    ],
  ])('refuses %s', (_case, frontMatter) => {
    expect(() => parsePage('a.md', page(frontMatter))).toThrow(ContentError);
  });

  it('refuses an H1 in the body: the title is the only H1', () => {
    expect(() => renderMarkdown('# Autre titre', 'a.md')).toThrow(/H2/);
    expect(renderMarkdown('## Section', 'a.md')).toContain('<h2 id="section">Section</h2>');
  });

  it('makes site links absolute for the Markdown version, and leaves others alone', () => {
    const body = '[Contact](/contact) et [ailleurs](https://example.fr/x)\n\n[ref]: /services';
    expect(absoluteLinks(body, 'https://agence.example')).toBe(
      '[Contact](https://agence.example/contact) et [ailleurs](https://example.fr/x)\n\n[ref]: https://agence.example/services',
    );
  });
});
