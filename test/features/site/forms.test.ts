import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/kernel/http/site/site-files.ts';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION } from '../../../src/kernel/schemas/privacy-request.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { formsOf, unescapeHtml, type ScannedForm } from './html-scan.ts';
import { currentWording } from '../../../src/kernel/schemas/consent.ts';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '../../../src/kernel/schemas/bot-trap.ts';

/** Every action a site form posts to: the lead kinds and the request about one's data. */
const ACTIONS = [...LEAD_KINDS, PRIVACY_ACTION];

/** A select's value a person would pick. */
const SELECTED: Record<string, string> = { SMS__COUNTRY_CODE: '+33', kind: 'access' };

/** The bot trap's fields (docs/api-decisions.md, "Bot trap") are no lead fields: test/hardening/bot-trap.test.ts. */
const TRAP_FIELDS = [HONEYPOT_FIELD, FORM_TOKEN_FIELD];

let site: TestSite;
let test: TestApp;
let forms: { page: string; form: ScannedForm }[];

beforeAll(async () => {
  site = await buildTestSite();
  test = await buildTestApp({ siteDir: site.dir });
  forms = readManifest(site.dir).pages.flatMap((page) =>
    formsOf(readFileSync(join(site.dir, page.html), 'utf8')).map((form) => ({
      page: page.path,
      form,
    })),
  );
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

interface ObjectSchema {
  properties: Record<string, { maxLength?: number; format?: string }>;
  required?: string[];
  then?: { required?: string[] };
}

const SAMPLE: Record<string, string> = {
  email: 'lea@example.fr',
  tel: '0612345678',
  text: 'Texte de test',
};

/** What a browser without JavaScript sends: hidden values, filled required fields, first choices. */
function submission(form: ScannedForm): URLSearchParams {
  const body = new URLSearchParams();
  const picked = new Set<string>();
  for (const control of form.controls) {
    if (!control.name || control.name === HONEYPOT_FIELD) continue;
    if (control.type === 'hidden') body.append(control.name, control.value ?? '');
    else if (control.type === 'checkbox' || control.type === 'radio') {
      if (!picked.has(control.name)) body.append(control.name, control.value ?? 'on');
      picked.add(control.name);
    } else if (control.tag === 'select') body.append(control.name, SELECTED[control.name]!);
    else body.append(control.name, SAMPLE[control.type ?? 'text'] ?? SAMPLE.text!);
  }
  return body;
}

describe('site forms match the API schemas (docs/site.md)', () => {
  it('has the forms the content asks for', () => {
    const actions = forms.map(({ form }) => form.action);
    for (const endpoint of ACTIONS) expect(actions).toContain(endpoint.path);
    expect(forms.filter(({ form }) => form.action === '/api/audit')).toHaveLength(3);
  });

  it('names fields exactly as the schema and carries its bounds and required rules', () => {
    for (const { page, form } of forms) {
      const endpoint = ACTIONS.find((candidate) => candidate.path === form.action);
      expect(endpoint, `${page}: ${form.action}`).toBeDefined();
      const schema = endpoint?.schema as unknown as ObjectSchema;
      const shortRequest = form.controls.some((control) => control.name === 'TOOL_SOURCE');
      const required = [
        ...(schema.required ?? []),
        ...(shortRequest ? [] : (schema.then?.required ?? [])),
      ];
      const names = new Set<string>();
      for (const control of form.controls) {
        if (!control.name) {
          // The consent box (spec 5) is required and never sent.
          expect(control.type, `${page}: unnamed control`).toBe('checkbox');
          expect(control.required, `${page}: consent`).toBe('');
          continue;
        }
        if (TRAP_FIELDS.includes(control.name)) continue;
        // formData[Question] and consent[version] are fields of the objects formData and consent.
        const field = control.name.replace(/\[.*$/, '');
        names.add(field);
        const property = schema.properties[field];
        expect(property, `${page}: ${control.name}`).toBeDefined();
        if (control.type === 'hidden' || control.type === 'checkbox' || control.type === 'radio')
          continue;
        if (control.tag !== 'select') {
          // Never `maxlength`, which silently cuts a pasted text: the limit is counted instead.
          expect(control['data-maxlength'], `${page}: ${control.name}`).toBe(
            property?.maxLength?.toString(),
          );
          expect(control.maxlength, `${page}: ${control.name}`).toBeUndefined();
        }
        expect('required' in control, `${page}: ${control.name} required`).toBe(
          required.includes(field),
        );
        if (property?.format === 'email') expect(control.type).toBe('email');
      }
      for (const field of required) expect(names, `${page}: ${field}`).toContain(field);
      expect(form.html).toContain('role="alert"');
    }
  });

  it('posts as a plain HTML form and lands on its outcome’s thank-you page (spec 4 rule 4, no JavaScript)', async () => {
    const expected: Record<string, string> = {
      '/api/contact': '/contact/merci',
      '/api/subscribe': '/newsletter/merci',
      '/api/audit': '/secteurs/merci',
      '/api/privacy': '/vos-donnees/merci',
    };
    for (const { page, form } of forms) {
      const response = await test.app.inject({
        method: 'POST',
        url: form.action,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: submission(form).toString(),
      });
      expect(response.statusCode, `${page} → ${form.action}: ${response.body}`).toBe(303);
      expect(response.headers.location).toBe(expected[form.action]);
    }
    for (const path of Object.values(expected)) {
      const page = await test.app.inject({ url: path });
      expect(page.statusCode, path).toBe(200);
      // What was received and what comes next, with no section about the other outcomes.
      expect(page.body, path).toContain('<meta name="robots" content="noindex">');
    }
    const newsletter = (await test.app.inject({ url: '/newsletter/merci' })).body;
    expect(newsletter).toMatch(/boîte de réception/);
    expect(newsletter).not.toMatch(/24 heures ouvrées.*e-mail de confirmation part vers/s);
    const audit = (await test.app.inject({ url: '/secteurs/merci' })).body;
    expect(audit).toMatch(/questionnaire d’audit/);
    expect(audit).toMatch(/href="\/secteurs" class="in-section"/);
  });

  it('shows, beside the submit button, the consent wording whose version it sends (docs/consent.md)', async () => {
    for (const { page, form } of forms) {
      const endpoint = LEAD_KINDS.find((candidate) => candidate.path === form.action);
      if (!endpoint) {
        // A request about one's data asks no consent: the person confirms it by e-mail.
        expect(form.action, page).toBe(PRIVACY_ACTION.path);
        expect(form.html, page).not.toContain('consent[');
        continue;
      }
      const wording = currentWording(endpoint.kind);
      const version = form.controls.find((control) => control.name === 'consent[version]');
      expect(version?.value, page).toBe(wording.version);
      const visible = unescapeHtml(form.html.replace(/<[^>]+>/g, ''));
      expect(visible, page).toContain(wording.text);
      // Between the wording and the submit button: no other field, only the box to tick.
      const tail = form.html.slice(
        form.html.indexOf('consent[version]'),
        form.html.indexOf('</button>'),
      );
      expect(tail, page).toContain('<button type="submit"');
      const fields = [...tail.matchAll(/<(input|textarea|select)\b([^>]*)>/g)].map((m) => m[2]!);
      expect(fields.filter((attributes) => !/type="(hidden|checkbox)"/.test(attributes))).toEqual(
        [],
      );
    }
    const before = (await test.store.list()).length;
    const contact = forms.find(({ form }) => form.action === '/api/contact')!;
    // Another address than the earlier posts': the same body again would be the same lead.
    const body = submission(contact.form);
    body.set('EMAIL', 'consent.check@example.fr');
    await test.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `http://localhost:3000${contact.page}`,
      },
      payload: body.toString(),
    });
    const lead = (await test.store.list())[before]!.lead;
    expect(lead.consent).toMatchObject({
      version: currentWording('contact').version,
      channel: 'form',
      page: contact.page,
    });
  });

  it('loads the enhancement script only where a form is, from the site itself', () => {
    const html = readFileSync(join(site.dir, 'contact/index.html'), 'utf8');
    expect(html).toMatch(/<script src="\/assets\/forms\.[0-9a-f]+\.js" defer><\/script>/);
    const legal = readFileSync(join(site.dir, 'mentions-legales/index.html'), 'utf8');
    expect(legal).not.toContain('<script');
  });
});
