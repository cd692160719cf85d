import { describe, expect, it } from 'vitest';
import {
  matchesEtag,
  pickEncoding,
  prefersMarkdown,
} from '../../../src/kernel/http/site/site-negotiation.ts';

describe('Accept negotiation of pages (docs/site.md)', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html', true],
    ['text/html;q=0.5, text/markdown;q=0.5', true],
    ['text/markdown;q=0.9, */*;q=0.8', true],
    ['text/html, text/markdown;q=0.9', false],
    ['text/markdown;q=0.5, */*', false],
    ['text/markdown;q=0', false],
    ['*/*', false],
    ['text/*', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['', false],
  ])('Accept: %s → Markdown %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });

  it('treats a missing Accept header as HTML', () => {
    expect(prefersMarkdown(undefined)).toBe(false);
  });
});

describe('Accept-Encoding negotiation', () => {
  const both = { br: true, gzip: true };
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
  ])('Accept-Encoding: %s → %s', (header, expected) => {
    expect(pickEncoding(header, both)).toBe(expected);
  });

  it('never picks a variant the build did not write', () => {
    expect(pickEncoding('br, gzip', { br: false, gzip: true })).toBe('gzip');
    expect(pickEncoding('br', { br: false, gzip: false })).toBe('identity');
  });
});

describe('If-None-Match', () => {
  it('matches a listed tag, a weak form of it, or *', () => {
    expect(matchesEtag('"a", "b"', '"b"')).toBe(true);
    expect(matchesEtag('W/"b"', '"b"')).toBe(true);
    expect(matchesEtag('*', '"b"')).toBe(true);
    expect(matchesEtag('"c"', '"b"')).toBe(false);
    expect(matchesEtag(undefined, '"b"')).toBe(false);
  });
});
