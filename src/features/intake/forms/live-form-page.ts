import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { FORM_TOKEN_FIELD, FORM_TOKEN_PLACEHOLDER } from '../../../kernel/schemas/bot-trap.ts';
import type { BotTrap } from './bot-trap.ts';
import {
  etagOf,
  hashOf,
  representationOf,
  type FileOptions,
  type Representation,
  type StaticFile,
} from '../../../kernel/http/site/site-files.ts';
import type { Encoding } from '../../../kernel/http/site/site-negotiation.ts';

/** The token input as src/features/site/templates/bot-trap.ts writes it into the built pages. */
const SLOT = `name="${FORM_TOKEN_FIELD}" value="${FORM_TOKEN_PLACEHOLDER}"`;

/**
 * A cache may keep a form page only if it asks first (docs/api-decisions.md, "Bot trap"): the page's
 * token must be fresh for the minimum fill time to mean anything. `private`: a shared cache would
 * hand one token to every visitor.
 */
export const FORM_PAGE_CACHE = 'private, no-cache';

/** Whether a built page carries a form token to sign as it is served. */
export function hasTokenSlot(html: string): boolean {
  return html.includes(SLOT);
}

/** `html` with the token slot filled: the token a served page gets, or the one a refused post sent back. */
export function withToken(html: string, token: string): string {
  return html.replaceAll(SLOT, `name="${FORM_TOKEN_FIELD}" value="${token}"`);
}

/**
 * Fast settings: a page is compressed again at most once a second, in the request that needs it,
 * where the build's brotli 10 / gzip 9 (src/features/site/output.ts) would cost tens of
 * milliseconds.
 */
const COMPRESS: Record<Exclude<Encoding, 'identity'>, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipSync(body, { level: 6 }),
};

/**
 * A built page with a form, served with a signed time in its token input
 * (src/features/intake/forms/bot-trap.ts). The page is rendered again lazily, at most once a second
 * (the token's resolution), and each encoding compressed only when a request asks for it, so a page
 * view still costs one lookup. The ETag is weak and the same every second: a 304 leaves the cache
 * its copy, whose older token only makes the form look filled more slowly, never too fast.
 */
export function liveFormPage(
  dir: string,
  file: string,
  options: Omit<FileOptions, 'cacheControl'>,
  trap: Pick<BotTrap, 'issue'>,
  now: () => number = Date.now,
): () => StaticFile {
  const template = readFileSync(join(dir, file), 'utf8');
  const hash = hashOf(template);
  const encodings = (['br', 'gzip'] as const).filter((encoding) =>
    existsSync(join(dir, `${file}.${encoding === 'br' ? 'br' : 'gz'}`)),
  );
  const fileOptions = { ...options, cacheControl: FORM_PAGE_CACHE };
  let second = Number.NaN;
  let current: StaticFile | undefined;
  const render = (nowMs: number): StaticFile => {
    const identity = Buffer.from(withToken(template, trap.issue(nowMs)));
    const representation = (body: Buffer, encoding: Encoding): Representation =>
      representationOf(file, identity, body, encoding, etagOf(hash, encoding, true), fileOptions);
    const page: StaticFile = { identity: representation(identity, 'identity') };
    for (const encoding of encodings) {
      let compressed: Representation | undefined;
      Object.defineProperty(page, encoding, {
        enumerable: true,
        get: () => (compressed ??= representation(COMPRESS[encoding](identity), encoding)),
      });
    }
    return page;
  };
  return () => {
    const nowMs = now();
    const at = Math.floor(nowMs / 1000);
    if (at !== second || current === undefined) {
      current = render(nowMs);
      second = at;
    }
    return current;
  };
}
