import { describe, expect, it } from 'vitest';
import { FORM_MESSAGES } from '../../../src/kernel/schemas/form-messages.ts';
import { useSiteApp } from '../../helpers/site-app.ts';

const served = useSiteApp();

const post = (url: string, fields: Record<string, string>, accept?: string) =>
  served.t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(accept && { accept }),
    },
    payload: new URLSearchParams(fields).toString(),
  });

const diagnostic = {
  TOOL_SOURCE: 'diagnostic-gratuit',
  PRENOM: 'Léa "<script>alert(1)</script>',
  EMAIL: 'lea@exemple',
};

describe('a refused form post: its page for a browser, JSON for a program (docs/api-decisions.md)', () => {
  it('a browser gets the form’s page at status 400, values kept (escaped), a message by the field', async () => {
    const response = await post('/api/contact', diagnostic, 'text/html,*/*;q=0.8');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    // The diagnostic form, told from the contact form by its hidden TOOL_SOURCE.
    expect(response.body).toContain('id="diagnostic-EMAIL"');
    expect(response.body).not.toContain('id="contact-EMAIL"');
    expect(response.body).toContain('value="lea@exemple" aria-invalid="true"');
    expect(response.body).toContain('value="Léa &quot;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(response.body).not.toContain('<script>alert(1)');
    expect(response.body).toContain(
      `<p class="field-error" id="diagnostic-EMAIL-erreur">${FORM_MESSAGES.email}</p>`,
    );
  });

  it('every faulty field at once, and the group of boxes by its legend', async () => {
    const response = await post('/api/contact', { PRENOM: 'Léa', EMAIL: 'lea@exemple.fr' });
    expect(response.statusCode).toBe(400);
    for (const id of ['contact-NOM', 'contact-JOB_TITLE', 'contact-SERVICE', 'contact-DEMANDE']) {
      expect(response.body).toContain(`id="${id}-erreur"`);
    }
    expect(response.body).toContain(`${FORM_MESSAGES.choice}</p></fieldset>`);
    expect(response.body).toMatch(/id="contact-NOM" autofocus/);
  });

  it('anyone asking for JSON, or sending JSON, gets the ErrorResponse as before', async () => {
    const asked = await post('/api/contact', diagnostic, 'application/json');
    expect(asked.statusCode).toBe(400);
    expect(asked.json()).toMatchObject({ success: false, error: { code: 'invalid_field' } });
    const json = await served.t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', accept: 'text/html' },
      payload: JSON.stringify({ PRENOM: 'Léa', EMAIL: 'lea@exemple', TOOL_SOURCE: 'x' }),
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a field no form has keeps the JSON answer (a program posting a form body)', async () => {
    const response = await post('/api/subscribe', {
      email: 'a@exemple.fr',
      firstName: 'A',
      x: '1',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });
});
