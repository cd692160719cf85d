import type { TObject } from 'typebox';
import { frenchList } from './french-text.ts';
import { ErrorResponseSchema, SuccessResponseSchema } from './responses.ts';

/*
 * What the API answers beyond `success` and `error` (docs/api-decisions.md): the fields added to the
 * contract, read from the answer schemas themselves so llms.txt, /developers and /openapi.json name
 * every one of them, and a field added to a schema reaches all three.
 */

export interface AnswerField {
  name: string;
  /** The schema's short French title, for a sentence. */
  title: string;
  /** The schema's full description, for a reference. */
  description: string;
}

/** The optional fields of an answer schema, in the schema's order. */
export function optionalAnswerFields(schema: TObject): AnswerField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .filter(([name]) => !required.has(name))
    .map(([name, property]) => {
      const { title, description } = property as { title?: string; description?: string };
      if (!title || !description)
        throw new Error(`${name}: an answer field needs a title and a description`);
      return { name, title, description };
    });
}

export const SUCCESS_FIELDS = optionalAnswerFields(SuccessResponseSchema);
export const ERROR_FIELDS = optionalAnswerFields(ErrorResponseSchema);

const glossed = (fields: readonly AnswerField[]) =>
  frenchList(fields.map(({ name, title }) => `\`${name}\` (${title})`));

/** One paragraph for an agent reading llms.txt or the OpenAPI description. */
export function answerFieldsSentence(): string {
  return `Une demande acceptée répond \`{"success": true}\` avec, selon l’action, ${glossed(SUCCESS_FIELDS)}. Une erreur 400 porte, à côté de \`error\`, ${glossed(ERROR_FIELDS)}.`;
}
