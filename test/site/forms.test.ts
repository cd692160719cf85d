import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../src/http/site-files.ts';
import { LEAD_ENDPOINTS } from '../../src/schemas/endpoints.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';
import { formsOf, type ScannedForm } from './html-scan.ts';

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
    if (!control.name) continue;
    if (control.type === 'hidden') body.append(control.name, control.value ?? '');
    else if (control.type === 'checkbox' || control.type === 'radio') {
      if (!picked.has(control.name)) body.append(control.name, control.value ?? 'on');
      picked.add(control.name);
    } else if (control.tag === 'select') body.append(control.name, '+33');
    else body.append(control.name, SAMPLE[control.type ?? 'text'] ?? SAMPLE.text!);
  }
  return body;
}

describe('site forms match the API schemas (issue 3)', () => {
  it('has the forms the content asks for', () => {
    const actions = forms.map(({ form }) => form.action);
    for (const endpoint of LEAD_ENDPOINTS) expect(actions).toContain(endpoint.path);
    expect(forms.filter(({ form }) => form.action === '/api/audit')).toHaveLength(3);
  });

  it('names fields exactly as the schema and carries its bounds and required rules', () => {
    for (const { page, form } of forms) {
      const endpoint = LEAD_ENDPOINTS.find((candidate) => candidate.path === form.action);
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
        const field = control.name.startsWith('formData[') ? 'formData' : control.name;
        names.add(field);
        const property = schema.properties[field];
        expect(property, `${page}: ${control.name}`).toBeDefined();
        if (control.type === 'hidden' || control.type === 'checkbox' || control.type === 'radio')
          continue;
        if (control.tag !== 'select') {
          expect(control.maxlength, `${page}: ${control.name}`).toBe(
            property?.maxLength?.toString(),
          );
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

  it('posts as a plain HTML form and lands on /contact/merci (spec 4 rule 4, no JavaScript)', async () => {
    for (const { page, form } of forms) {
      const response = await test.app.inject({
        method: 'POST',
        url: form.action,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: submission(form).toString(),
      });
      expect(response.statusCode, `${page} → ${form.action}: ${response.body}`).toBe(303);
      expect(response.headers.location).toBe('/contact/merci');
    }
    expect((await test.app.inject({ url: '/contact/merci' })).statusCode).toBe(200);
  });

  it('loads the enhancement script only where a form is, from the site itself', () => {
    const html = readFileSync(join(site.dir, 'contact/index.html'), 'utf8');
    expect(html).toMatch(/<script src="\/assets\/forms\.[0-9a-f]+\.js" defer><\/script>/);
    const legal = readFileSync(join(site.dir, 'mentions-legales/index.html'), 'utf8');
    expect(legal).not.toContain('<script');
  });
});
