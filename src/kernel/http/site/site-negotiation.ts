/*
 * Content negotiation for the pre-rendered site (docs/site.md), small and allocation-light because it
 * runs on every page request (benchmarks it against nginx, docs/performance.md).
 */

/** q-value of each media range or coding in an Accept-style header, e.g. {"text/html": 1}. */
function qualities(header: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(value?.trim());
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    // The first, most explicit mention wins if a range is repeated.
    if (!result.has(name)) result.set(name, q);
  }
  return result;
}

function qualityOf(accepted: Map<string, number>, type: string): number {
  return accepted.get(type) ?? accepted.get(`${type.split('/')[0]}/*`) ?? accepted.get('*/*') ?? 0;
}

/**
 * Markdown only when asked for by name (a wildcard alone, `text/*` or the any-type range, means
 * HTML), with a q-value at least that of HTML: `text/markdown` and `text/markdown, text/html` both
 * get Markdown.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept || !accept.includes('markdown')) return false;
  return remembered(markdownDecisions, accept, decideMarkdown);
}

/**
 * Clients send a handful of distinct Accept headers (each browser or agent always the same one), so
 * each decision is parsed once and then read from a small map: a page request allocates nothing here.
 * The map is bounded and starts afresh when full, so odd headers cannot grow it.
 */
const REMEMBERED_HEADERS = 256;
function remembered<T>(decisions: Map<string, T>, header: string, decide: (h: string) => T): T {
  const known = decisions.get(header);
  if (known !== undefined) return known;
  if (decisions.size >= REMEMBERED_HEADERS) decisions.clear();
  const decision = decide(header);
  decisions.set(header, decision);
  return decision;
}
const markdownDecisions = new Map<string, boolean>();

function decideMarkdown(accept: string): boolean {
  const accepted = qualities(accept);
  const markdown = accepted.get('text/markdown') ?? accepted.get('text/x-markdown') ?? 0;
  return markdown > 0 && markdown >= qualityOf(accepted, 'text/html');
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** Brotli, then gzip, by their q-values; a coding refused with q=0 is never sent. */
export function pickEncoding(
  acceptEncoding: string | undefined,
  available: { br: boolean; gzip: boolean },
): Encoding {
  if (!acceptEncoding) return 'identity';
  const decisions = encodingDecisions[(available.br ? 2 : 0) + (available.gzip ? 1 : 0)]!;
  return remembered(decisions, acceptEncoding, (header) => decideEncoding(header, available));
}
/** One map per set of available encodings (none, gzip, br, both). */
const encodingDecisions = [0, 1, 2, 3].map(() => new Map<string, Encoding>());

function decideEncoding(
  acceptEncoding: string,
  available: { br: boolean; gzip: boolean },
): Encoding {
  const accepted = qualities(acceptEncoding);
  const star = accepted.get('*') ?? 0;
  const br = available.br ? (accepted.get('br') ?? star) : 0;
  const gzip = available.gzip ? (accepted.get('gzip') ?? accepted.get('x-gzip') ?? star) : 0;
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored on both sides. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}
