import { isMap, isPair, isScalar, isSeq, LineCounter, type Document, type YAMLError } from 'yaml';
import type { TSchema } from 'typebox';

/**
 * A problem in the identity file, as the one French line the operator reads (docs/site.md,
 * "L'identité de l'agence"): the file, the line, the field, what to write instead. The CLI prints
 * its message alone, never a stack trace, and exits with code 2.
 */
export class IdentityFileError extends Error {
  override name = 'IdentityFileError';
}

export interface SchemaProblem {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** What YAML's syntax errors mean for someone writing French text (docs/site.md). */
const SYNTAX: Record<string, string> = {
  BLOCK_AS_IMPLICIT_KEY:
    'un texte contient « : » (deux-points suivi d’une espace) : mettez tout le texte entre guillemets droits ("…")',
  MULTILINE_IMPLICIT_KEY:
    'un texte contient « : » (deux-points suivi d’une espace) : mettez tout le texte entre guillemets droits ("…")',
  DUPLICATE_KEY: 'ce champ est écrit deux fois',
  TAB_AS_INDENT: 'une tabulation décale la ligne : utilisez des espaces',
  BAD_INDENT: 'décalage incorrect : alignez la ligne sur les autres champs du même bloc',
  MISSING_CHAR: 'un guillemet ou un crochet n’est pas refermé',
  BAD_DQ_ESCAPE: 'une barre oblique inverse (\\) entre guillemets : écrivez \\\\ ou retirez-la',
};

/** "legal.address.postalCode", "team[1].bio": the field as the file's structure names it. */
export function fieldName(path: (string | number)[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index ? `.${key}` : key))
    .join('');
}

/** Offset of the deepest node of `path` present in the document (the key, for a map entry). */
function offsetOf(doc: Document, path: (string | number)[]): number {
  let node: unknown = doc.contents;
  let offset = 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isPair(item) && isScalar(item.key) && item.key.value === key,
      );
      if (!pair) break;
      offset = (isScalar(pair.key) && pair.key.range?.[0]) || offset;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key]) {
      node = node.items[key];
      offset = (node as { range?: [number] }).range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

export function lineOf(doc: Document, text: string, path: (string | number)[]): number {
  const lines = new LineCounter();
  let start = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    lines.addNewLine(start);
    start = index + 1;
  }
  lines.addNewLine(start);
  return lines.linePos(offsetOf(doc, path)).line;
}

export function syntaxMessage(error: YAMLError): { line: number; message: string } {
  return {
    line: error.linePos?.[0].line ?? 1,
    message: SYNTAX[error.code] ?? `syntaxe incorrecte (${error.code})`,
  };
}

function schemaAt(root: TSchema, schemaPath: string): TSchema | undefined {
  let node: unknown = root;
  for (const key of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return node as TSchema | undefined;
}

const TYPE_NAMES: Record<string, string> = {
  string: "doit être un texte (entre apostrophes s’il ne contient que des chiffres : '69002')",
  array: 'doit être une liste (une ligne « - … » par élément)',
  object: 'doit être un bloc de champs, sur les lignes suivantes, décalés de deux espaces',
};

/** The field and the French sentence for one schema problem. */
export function schemaMessage(
  root: TSchema,
  problem: SchemaProblem,
): { path: (string | number)[]; message: string; rank: number } {
  const path = problem.instancePath
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) => (/^\d+$/.test(key) ? Number(key) : key));
  const own = (schemaAt(root, problem.schemaPath) as { message?: string } | undefined)?.message;
  if (problem.keyword === 'required') {
    const missing = (problem.params.requiredProperties as string[] | undefined)?.[0];
    // After the other problems: a misspelt field is also a missing one, the typo says more.
    return { path, message: `le champ « ${missing ?? '?'} » manque`, rank: 2 };
  }
  if (problem.keyword === 'boolean') {
    return {
      path,
      message: 'champ inconnu (faute de frappe ?) : retirez-le ou corrigez son nom',
      rank: 0,
    };
  }
  if (own) return { path, message: own, rank: 0 };
  const type = problem.keyword === 'type' ? TYPE_NAMES[String(problem.params.type)] : undefined;
  return { path, message: type ?? 'valeur incorrecte', rank: 1 };
}
