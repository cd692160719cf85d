import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_FIELDS, SUCCESS_FIELDS } from '../../../src/kernel/schemas/answer-fields.ts';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION } from '../../../src/kernel/schemas/privacy-request.ts';
import type { ErrorResponse } from '../../../src/kernel/schemas/responses.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useSiteApp } from '../../helpers/site-app.ts';

/*
 * docs/api-decisions.md: what the API answers beyond `success` and `error` (`errors`, `warnings`,
 * `reference`, `answerBy`…) is named wherever an agent reads about the API, from the answer schemas.
 */
const served = useSiteApp();
const read = (file: string) => readFileSync(join(served.site.dir, file), 'utf8');

interface Document {
  info: { description: string };
  paths: Record<
    string,
    {
      post: {
        responses: Record<
          string,
          { content: { 'application/json': { examples: Record<string, { value: object }> } } }
        >;
      };
    }
  >;
}

describe('the fields an answer may carry, in every text an agent reads', () => {
  it('the schemas carry the contract’s additions', () => {
    expect(SUCCESS_FIELDS.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['warnings', 'reference', 'answerBy']),
    );
    expect(ERROR_FIELDS.map(({ name }) => name)).toEqual(['errors']);
  });

  it('/llms.txt names each with what it means, before its link lists', () => {
    const llms = read('llms.txt');
    for (const { name, title } of [...SUCCESS_FIELDS, ...ERROR_FIELDS]) {
      const at = llms.indexOf(`\`${name}\` (${title})`);
      expect(at, name).toBeGreaterThan(0);
      expect(at, name).toBeLessThan(llms.indexOf('\n## '));
    }
  });

  it('/developers (and so /llms-full.txt) describes each in full', () => {
    for (const file of ['developers.md', 'llms-full.txt']) {
      for (const { name, description } of [...SUCCESS_FIELDS, ...ERROR_FIELDS]) {
        expect(read(file), `${file} ${name}`).toContain(`- \`${name}\` : ${description}`);
      }
    }
  });

  it('/openapi.json says it in its description and shows several problems answered at once', async () => {
    const doc = (await served.t.app.inject({ url: '/openapi.json' })).json<Document>();
    for (const { name, title } of [...SUCCESS_FIELDS, ...ERROR_FIELDS]) {
      expect(doc.info.description, name).toContain(`\`${name}\` (${title})`);
    }
    for (const action of [...LEAD_KINDS, PRIVACY_ACTION]) {
      const { examples } =
        doc.paths[action.path]!.post.responses['400']!.content['application/json'];
      const answer = examples.several_problems!.value as ErrorResponse;
      expect(answer.errors?.length, action.path).toBeGreaterThanOrEqual(2);
      // The published answer is the one the server gives to that body.
      const corrected = /Le corps corrigé : (\{.*\})/.exec(answer.error.hint)?.[1];
      expect(corrected, action.path).toBeDefined();
      expect(answer.error.hint).not.toMatch(/(La description complète[^.]*\.).*\1/);
      for (const problem of answer.errors!) expect(problem.message).not.toMatch(/\?\.$/);
    }
  });

  it('the corrected body of that example, completed, is accepted', async () => {
    const doc = (await served.t.app.inject({ url: '/openapi.json' })).json<Document>();
    for (const action of LEAD_KINDS) {
      const { examples } =
        doc.paths[action.path]!.post.responses['400']!.content['application/json'];
      const { error } = examples.several_problems!.value as ErrorResponse;
      const corrected = /Le corps corrigé : (\{.*\})/.exec(error.hint)![1]!;
      const completed = corrected.replace(/<à compléter : [^>]*>/g, 'Marie');
      const response = await postJson(served.t.app, action.path, completed);
      expect(response.statusCode, `${action.path} ${response.body}`).toBe(200);
    }
  });
});
