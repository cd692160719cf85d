import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { MANIFEST_FILE, type SiteManifest } from '../../schemas/site-manifest.ts';
import type { Encoding } from './site-negotiation.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
};

/**
 * docs/site.md: strict, and still compatible with the forms (same-origin posts and fetch, external
 * script and stylesheet). No 'unsafe-inline' anywhere. No Cross-Origin-Opener-Policy: the site
 * holds no session for it to protect, and it made Chromium start each visit in a fresh renderer
 * process (docs/site.md, "Serving").
 */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** One encoding of a file, with every response header computed once, at start. */
export interface Representation {
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
  notModified: Record<string, string>;
  /** The same headers as Node's flat [name, value, …] list, content-length included (fast path). */
  flatHeaders: readonly string[];
  flatNotModified: readonly string[];
}

export type StaticFile = { [E in Encoding]?: Representation } & { identity: Representation };

export interface FileOptions {
  cacheControl: string;
  vary?: string;
  extraHeaders?: Record<string, string>;
}

function readIfPresent(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

/** The ETag of one encoding of a body whose identity bytes hash to `hash` (`W/` when `weak`). */
export function etagOf(hash: string, encoding: Encoding, weak = false): string {
  const suffix = encoding === 'identity' ? '' : encoding === 'br' ? '-br' : '-gz';
  return `${weak ? 'W/' : ''}"${hash}${suffix}"`;
}

export function hashOf(identity: Buffer | string): string {
  return createHash('sha256').update(identity).digest('base64url').slice(0, 22);
}

/** One encoding of a file of type `file` (its name gives the type), every header computed now. */
export function representationOf(
  file: string,
  identity: Buffer,
  body: Buffer,
  encoding: Encoding,
  etag: string,
  options: FileOptions,
): Representation {
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  const common = {
    etag,
    'cache-control': options.cacheControl,
    ...(options.vary && { vary: options.vary }),
  };
  const headers: Record<string, string> = {
    'content-type': type,
    ...common,
    ...(encoding !== 'identity' && { 'content-encoding': encoding }),
    // Agents budget their context with it (about four characters a token).
    ...(extname(file) === '.md' && {
      'x-markdown-tokens': String(Math.ceil(identity.toString('utf8').length / 4)),
    }),
    ...(type.startsWith('text/html') && HTML_SECURITY_HEADERS),
    ...options.extraHeaders,
  };
  return {
    body,
    etag,
    notModified: common,
    headers,
    flatHeaders: [...Object.entries(headers).flat(), 'content-length', String(body.length)],
    flatNotModified: Object.entries(common).flat(),
  };
}

/** Reads a file and its precompressed .br/.gz siblings; strong ETags differ per encoding. */
export function loadFile(dir: string, file: string, options: FileOptions): StaticFile {
  const identity = readFileSync(join(dir, file));
  const hash = hashOf(identity);
  const representation = (body: Buffer, encoding: Encoding) =>
    representationOf(file, identity, body, encoding, etagOf(hash, encoding), options);
  const result: StaticFile = { identity: representation(identity, 'identity') };
  const br = readIfPresent(join(dir, `${file}.br`));
  const gzip = readIfPresent(join(dir, `${file}.gz`));
  if (br) result.br = representation(br, 'br');
  if (gzip) result.gzip = representation(gzip, 'gzip');
  return result;
}

export function readManifest(dir: string): SiteManifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) {
    throw new Error(`${path} is missing: run \`npm run build\` (leadgate build) first`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as SiteManifest;
}
