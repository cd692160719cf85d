/**
 * THE AGENCY'S IDENTITY, loaded from site/agency.yaml (or the file AGENCY_FILE names): the one
 * file the operator edits before going live (docs/site.md, "L'identité de l'agence"). This module
 * is the loader and the types, not the place to edit.
 *
 * The legal notice, the footer, the proof blocks, the references, the JSON-LD, the identity part of
 * /llms.txt, the privacy notice and the e-mails are generated from `AGENCY`. Every value written
 * `!exemple …` in the file is a SAMPLE shipped so the site looks finished: `leadgate build` lists
 * each one still present, and refuses to build with NODE_ENV=production unless given
 * `--allow-sample-identity` (src/features/site/identity-check.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Value from 'typebox/value';
import { parseDocument, type Document } from 'yaml';
import { SECTORS } from '../../kernel/schemas/sectors.ts';
import { AgencySchema, type Agency, type PostalAddress } from './agency-schema.ts';
import { contrastRatio, MIN_CONTRAST } from './agency-colors.ts';
import {
  fieldName,
  IdentityFileError,
  lineOf,
  schemaMessage,
  syntaxMessage,
  type SchemaProblem,
} from './agency-errors.ts';

export type {
  Agency,
  Person,
  Picture,
  PostalAddress,
  PriceRange,
  Reference,
} from './agency-schema.ts';
export { IdentityFileError } from './agency-errors.ts';

/** The sample shipped with the code: the example every rebranding starts from. */
export const SAMPLE_IDENTITY_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../site/agency.yaml',
);

export interface LoadedIdentity {
  agency: Agency;
  /** The file read, as given (the name error lines and warnings show). */
  file: string;
  /** Where its logo, photos and screenshots are: images/ beside the file. */
  imagesDir: string;
  /** Every value tagged `!exemple` in the file. */
  samples: Set<string>;
}

/** The identity file this process uses: AGENCY_FILE, else the sample in site/. */
export function identityFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENCY_FILE ? resolve(env.AGENCY_FILE) : SAMPLE_IDENTITY_FILE;
}

function fail(file: string, line: number, field: string, message: string): never {
  const where = field ? `${field} : ` : '';
  throw new IdentityFileError(`${file}, ligne ${line} : ${where}${message}`);
}

/** The files the identity names must exist in images/, the brand colour must be readable. */
function checkResources(identity: LoadedIdentity, doc: Document, text: string): void {
  const { agency, file, imagesDir } = identity;
  const at = (path: (string | number)[], message: string): never =>
    fail(file, lineOf(doc, text, path), fieldName(path), message);
  const files: [(string | number)[], string][] = [
    [['logo'], agency.logo],
    ...agency.team.flatMap((person, index): [(string | number)[], string][] =>
      person.photo ? [[['team', index, 'photo', 'file'], person.photo.file]] : [],
    ),
    ...agency.references.flatMap((reference, index): [(string | number)[], string][] =>
      reference.screenshot
        ? [[['references', index, 'screenshot', 'file'], reference.screenshot.file]]
        : [],
    ),
  ];
  for (const [path, name] of files) {
    if (!existsSync(join(imagesDir, name))) at(path, `le fichier ${name} manque dans ${imagesDir}`);
  }
  const ratio = contrastRatio(agency.brandColor, '#ffffff');
  if (ratio < MIN_CONTRAST) {
    at(
      ['brandColor'],
      `${agency.brandColor} est trop pâle : contraste ${ratio.toFixed(1).replace('.', ',')}:1 avec le texte blanc des boutons, il faut au moins 4,5:1 (WCAG AA) ; choisissez une teinte plus foncée`,
    );
  }
}

/**
 * Every sector page says what its audit costs (docs/site.md, "Tarifs"): each sector is named by
 * exactly one price's `sectors`, « gratuit » being a price like any other.
 */
function checkAuditPrices(identity: LoadedIdentity, doc: Document, text: string): void {
  const { agency, file } = identity;
  const at = (path: (string | number)[], message: string): never =>
    fail(file, lineOf(doc, text, path), fieldName(path), message);
  for (const sector of SECTORS) {
    const pricing = agency.prices.flatMap((range, index) =>
      range.sectors?.includes(sector) ? [index] : [],
    );
    if (pricing.length === 0) {
      at(
        ['prices'],
        `aucun tarif ne dit ce que coûte l’audit du secteur ${sector} : ajoutez-le aux sectors du tarif de l’audit (ex. « sectors: [${SECTORS.join(', ')}] », et « price: gratuit » s’il ne coûte rien)`,
      );
    }
    if (pricing.length > 1) {
      at(
        ['prices', pricing[1]!, 'sectors'],
        `l’audit du secteur ${sector} a déjà un tarif (prices[${pricing[0]}]) : gardez-en un seul`,
      );
    }
  }
}

/** Reads and validates an identity file; any problem is one IdentityFileError line. */
export function loadIdentity(path: string): LoadedIdentity {
  if (!existsSync(path)) {
    throw new IdentityFileError(`${path} : fichier d’identité introuvable (AGENCY_FILE ?)`);
  }
  const text = readFileSync(path, 'utf8');
  const samples = new Set<string>();
  const doc = parseDocument(text, {
    customTags: [
      {
        tag: '!exemple',
        resolve(value: string) {
          samples.add(value);
          return value;
        },
      },
    ],
  });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line, message } = syntaxMessage(syntax);
    fail(path, line, '', message);
  }
  const value: unknown = doc.toJS() ?? {};
  const problems = [...Value.Errors(AgencySchema, value)] as SchemaProblem[];
  if (problems.length) {
    // One line: the most telling problem (a sentence written for it), then the file's order.
    const found = problems.map((problem) => schemaMessage(AgencySchema, problem));
    const first = found
      .map((entry) => ({ ...entry, line: lineOf(doc, text, entry.path) }))
      .sort((a, b) => a.rank - b.rank || a.line - b.line)[0]!;
    fail(path, first.line, fieldName(first.path), first.message);
  }
  const identity = {
    agency: value as Agency,
    file: path,
    imagesDir: join(dirname(path), 'images'),
    samples,
  };
  checkResources(identity, doc, text);
  checkAuditPrices(identity, doc, text);
  return identity;
}

/** Read once, when the process starts (build, serve): a malformed file stops it with one line. */
export const IDENTITY: LoadedIdentity = loadIdentity(identityFilePath());
export const AGENCY: Agency = IDENTITY.agency;

/** "legal.siret: 912 345 678 00014" for every sample value still present in `agency`. */
export function sampleValuesLeft(
  agency: Agency = AGENCY,
  samples: ReadonlySet<string> = IDENTITY.samples,
): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (samples.has(value)) found.push(`${path}: ${value}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
    }
  };
  walk(agency, '');
  return found;
}

/** One line: "14 rue de la République, 69002 Lyon". */
export function postalAddressLine(address: PostalAddress): string {
  return `${address.street}, ${address.postalCode} ${address.locality}`;
}
