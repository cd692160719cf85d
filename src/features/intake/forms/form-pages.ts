import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { decodeHtml } from './form-error-page.ts';
import { readManifest } from '../../../kernel/http/site/site-files.ts';

interface FormPage {
  path: string;
  html: string;
  /** The form's hidden fields (sector, TOOL_SOURCE, source): they tell two forms of one endpoint apart. */
  hidden: Map<string, string>;
}

export interface FormPages {
  /** The built page whose form posting to `action` the request most likely came from. */
  pageFor(request: FastifyRequest, action: string): string | undefined;
}

const HIDDEN = /<input type="hidden" name="([^"]+)" value="([^"]*)">/g;

function formsOf(path: string, html: string): [string, FormPage][] {
  return [
    ...html.matchAll(/<form class="lead-form" method="post" action="([^"]+)"[\s\S]*?<\/form>/g),
  ].map(([form, action]) => [
    action!,
    {
      path,
      html,
      hidden: new Map(
        [...form.matchAll(HIDDEN)].map(([, name, value]) => [name!, decodeHtml(value!)]),
      ),
    },
  ]);
}

function refererPath(request: FastifyRequest): string | undefined {
  try {
    return new URL(request.headers.referer ?? '').pathname;
  } catch {
    return undefined;
  }
}

/**
 * The built pages that carry a lead form, read once at start, so a refused form post can be
 * answered with its own page (src/features/intake/forms/form-error-page.ts). Among the pages with a
 * form for the endpoint, the one whose hidden fields match the body wins, then the Referer's, then
 * the first.
 */
export function readFormPages(dir: string): FormPages & { reload(): void } {
  const read = () => {
    const forms = new Map<string, FormPage[]>();
    for (const page of readManifest(dir).pages) {
      const html = readFileSync(join(dir, page.html), 'utf8');
      for (const [action, form] of formsOf(page.path, html)) {
        forms.set(action, [...(forms.get(action) ?? []), form]);
      }
    }
    return forms;
  };
  let byAction = read();
  return {
    /**
     * After a rebuild (src/kernel/http/site/site-watch.ts): a refused post comes back as the new
     * page.
     */
    reload() {
      byAction = read();
    },
    pageFor(request, action) {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const referer = refererPath(request);
      const score = (form: FormPage) =>
        [...form.hidden].filter(([name, value]) => body[name] === value).length * 2 +
        Number(form.path === referer);
      const candidates = byAction.get(action) ?? [];
      return [...candidates].sort((a, b) => score(b) - score(a))[0]?.html;
    },
  };
}
