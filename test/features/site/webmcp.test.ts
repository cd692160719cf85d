import { HONEYPOT_FIELD } from '../../../src/kernel/schemas/bot-trap.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_TOOLS } from '../../../src/mcp/lead-tools.ts';
import { PRIVACY_TOOL } from '../../../src/mcp/privacy-tool.ts';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION } from '../../../src/kernel/schemas/privacy-request.ts';
import { findQuestion } from '../../../src/kernel/schemas/questionnaires.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { formsOf, type ScannedForm } from './html-scan.ts';

/* docs/agents.md, WebMCP: every site form is a tool named like its MCP twin on /mcp. */
const ACTIONS = [...LEAD_KINDS, PRIVACY_ACTION];
const TOOLS = [...LEAD_TOOLS, PRIVACY_TOOL];
let site: TestSite;
let forms: { page: string; form: ScannedForm; tag: Record<string, string> }[];
beforeAll(async () => {
  site = await buildTestSite();
  forms = readdirSync(site.dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .flatMap((file) => {
      const html = readFileSync(join(site.dir, file), 'utf8');
      const tags = [...html.matchAll(/<form\b[^>]*>/g)].map((match) => match[0]);
      // A link page's one button acts on the signed link it was opened with, for the person who
      // received it: no tool for an agent (docs/consent.md). Its other forms are tools.
      return formsOf(html).flatMap((form, index) =>
        form.action === '__lien_newsletter__'
          ? []
          : [
              {
                page: file,
                form,
                tag: Object.fromEntries(
                  [...tags[index]!.matchAll(/\s([a-z][\w-]*)(?:="([^"]*)")?/g)].map((m) => [
                    m[1]!,
                    m[2] ?? '',
                  ]),
                ),
              },
            ],
      );
    });
});
afterAll(() => site.remove());

describe('WebMCP attributes on every built form', () => {
  it('finds the five kinds of forms', () => {
    const actions = new Set(forms.map(({ form }) => form.action));
    expect([...actions].sort()).toEqual([
      '/api/audit',
      '/api/contact',
      '/api/privacy',
      '/api/subscribe',
    ]);
    // /vos-donnees and the unsubscribe page opened without a valid link.
    const privacy = forms.filter(({ form }) => form.action === '/api/privacy');
    expect(privacy.map(({ page }) => page).sort()).toEqual([
      'newsletter-links/unsubscribe-help.html',
      'newsletter-links/unsubscribe-invalid.html',
      'vos-donnees/index.html',
    ]);
    expect(forms.length).toBeGreaterThanOrEqual(6);
  });

  it('each form is named after the MCP tool of its endpoint, described, and never auto-submitted', () => {
    const toolNames = TOOLS.map((tool) => tool.name);
    for (const { page, form, tag } of forms) {
      const endpoint = ACTIONS.find((action) => action.path === form.action)!;
      expect(tag.toolname, page).toBe(endpoint.tool.name);
      expect(toolNames).toContain(tag.toolname);
      expect(tag.tooldescription!.length, page).toBeGreaterThan(20);
      expect(tag, page).not.toHaveProperty('toolautosubmit');
    }
  });

  it('every control a person fills is a field of the tool’s input schema, with its description', () => {
    for (const { page, form, tag } of forms) {
      const tool = TOOLS.find((candidate) => candidate.name === tag.toolname)!;
      const properties = tool.inputSchema.properties as Record<string, { description?: string }>;
      const sector = /secteurs\/(\w+)\//.exec(page)?.[1];
      for (const control of form.controls) {
        if (!control.name || control.type === 'hidden') continue;
        if (control.name === HONEYPOT_FIELD) {
          // The bot trap (docs/api-decisions.md): forms.js takes it out of the named controls
          // (test/quality/agent-forms-browser.test.ts); without scripts an agent is told to leave
          // it empty.
          expect(control['data-honeypot'], page).toBe('');
          expect(control.toolparamdescription, page).toMatch(/Leave this field empty/);
          continue;
        }
        const question = /^formData\[(.+)\]$/.exec(control.name)?.[1];
        if (question !== undefined) {
          expect(properties).toHaveProperty('formData');
          expect(findQuestion(sector as never, question)?.question, page).toBe(question);
          expect(control.toolparamdescription).toContain(question);
          continue;
        }
        expect(properties, `${page} ${control.name}`).toHaveProperty(control.name);
        expect(control.toolparamdescription, `${page} ${control.name}`).toBe(
          properties[control.name]!.description,
        );
      }
    }
  });

  it('every required field of the tool has a control or a hidden value in the form', () => {
    for (const { page, form, tag } of forms) {
      const tool = TOOLS.find((candidate) => candidate.name === tag.toolname)!;
      const names = new Set(form.controls.map((control) => control.name));
      for (const required of tool.inputSchema.required ?? []) {
        expect(names.has(required), `${page} ${required}`).toBe(true);
      }
    }
  });
});
