import type { NewsletterPageState } from './newsletter-pages.ts';
import type { PrivacyPageState } from './privacy-pages.ts';

/**
 * What `leadgate build` writes to dist/site-manifest.json and the server reads at start: which
 * URL answers with which file. The build owns the layout of dist/; the server never guesses it.
 */
export interface SiteManifest {
  siteUrl: string;
  builtAt: string;
  /** The configuration facts the pages state (the privacy notice): another value means rebuild. */
  settings?: string;
  /** Pages with their HTML and Markdown files (relative to dist/); the 404 page is apart. */
  pages: { path: string; html: string; markdown: string; markdownPath: string }[];
  notFound: { html: string; markdown: string };
  /** The answers to a newsletter link, by state (docs/consent.md): served with a status, unlisted. */
  newsletterPages?: Partial<Record<NewsletterPageState, string>>;
  /** The answers to a privacy request's link, by state (docs/consent.md), likewise. */
  privacyPages?: Partial<Record<PrivacyPageState, string>>;
  /** Every other public file: machine-readable files, assets, favicon. */
  files: { path: string; file: string; immutable: boolean }[];
}

export const MANIFEST_FILE = 'site-manifest.json';
