import { describe, expect, it } from 'vitest';
import type { Lead } from '../../src/kernel/lead/lead.ts';
import { useKindsApi } from '../helpers/kinds-api.ts';
import { confirmationEmail } from '../../src/features/intake/confirmation-email.ts';
import { agencyNotification } from '../../src/features/intake/notification-email.ts';
import { toolOf } from '../../src/mcp/lead-tools.ts';
import { buildOpenApiDocument } from '../../src/kernel/openapi/document.ts';
import { ContactRequestSchema } from '../../src/kernel/schemas/contact-request.ts';
import { CONTACT_EXAMPLE } from '../../src/kernel/schemas/examples.ts';
import { optionalText } from '../../src/kernel/schemas/fields.ts';
import {
  LEAD_KINDS,
  leadKindOf,
  type LeadKindDescriptor,
} from '../../src/kernel/schemas/lead-kinds.ts';
import { webhookEventSchema } from '../../src/kernel/schemas/webhook-event.ts';
import { SITE_DIR } from '../../src/features/site/build.ts';
import { developersReference } from '../../src/features/site/developers-reference.ts';
import { mailIdentity } from '../../src/features/site/mail-identity.ts';
import { pageMarkdown } from '../../src/features/site/page-markdown.ts';
import { loadPages } from '../../src/features/site/pages.ts';

/*
 * docs/architecture.md, « How to add a field »: an optional field is one line of its request
 * schema. This fixture adds BUDGET to the contact schema, nothing else, and checks that every
 * representation of the contact request carries it: the route's validation, /openapi.json,
 * /developers, the contact page's Markdown (its list of optional fields), the MCP tool, both
 * e-mails and the webhook event's schema.
 */
const BUDGET = optionalText('Budget envisagé', 50, 'Budget envisagé, en euros.', ['5 000 €']);
const WithBudget = {
  ...ContactRequestSchema,
  properties: { ...ContactRequestSchema.properties, BUDGET },
} as typeof ContactRequestSchema;
const CONTACT = { ...leadKindOf('contact'), schema: WithBudget } as LeadKindDescriptor;
const KINDS = LEAD_KINDS.map((kind) => (kind.kind === 'contact' ? CONTACT : kind));
const SITE_URL = 'https://agence.example';
const BODY = { ...CONTACT_EXAMPLE, BUDGET: '5 000 €' };

const contactLead = () =>
  ({ kind: 'contact', data: BODY, id: 'lead-1', receivedAt: new Date(0) }) as unknown as Lead;

describe('a new optional field is one line of its schema (docs/architecture.md)', () => {
  const { app, submitted } = useKindsApi(KINDS, { existing: false });

  it('is accepted by the route within its bound, refused past it', async () => {
    const ok = await app.inject({ method: 'POST', url: '/api/contact', payload: BODY });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(submitted).toEqual([{ kind: 'contact', data: BODY }]);
    const long = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...BODY, BUDGET: 'x'.repeat(51) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('BUDGET');
  });

  it('appears in /openapi.json and in /developers’ table of the contact fields', () => {
    const document = buildOpenApiDocument(SITE_URL, KINDS);
    expect(document.components.schemas.ContactRequest?.properties).toHaveProperty('BUDGET');
    const reference = developersReference(SITE_URL, { kinds: KINDS });
    const section = reference.slice(reference.indexOf('### POST /api/contact'));
    expect(section).toContain('| `BUDGET` | texte | non | 50 | Budget envisagé, en euros. |');
  });

  it('is among the optional fields of the contact and diagnostic pages’ Markdown', () => {
    const pages = loadPages(`${SITE_DIR}/content`);
    for (const path of ['/contact', '/diagnostic-gratuit']) {
      const markdown = pageMarkdown(
        pages.find((page) => page.path === path)!,
        SITE_URL,
        KINDS,
      );
      const form = markdown.slice(markdown.indexOf('## Envoyer ce formulaire par l’API'));
      expect(form, path).toMatch(/et au besoin [^.]*`BUDGET`/);
    }
  });

  it('is in the MCP tool’s input schema', () => {
    const tool = toolOf(CONTACT);
    expect(tool.inputSchema.properties).toHaveProperty('BUDGET');
  });

  it('reaches the agency’s notification and the sender’s confirmation, under its label', () => {
    const settings = {
      from: 'Agence <bonjour@agence.example>',
      agencyEmail: 'equipe@agence.example',
      siteUrl: SITE_URL,
      identity: mailIdentity(),
    };
    const notification = agencyNotification(contactLead(), settings, CONTACT);
    const confirmation = confirmationEmail(contactLead(), settings, CONTACT);
    for (const mail of [notification, confirmation]) {
      expect(mail?.text).toContain('Budget envisagé : ');
      expect(mail?.html).toContain('Budget envisagé');
    }
    // The confirmation goes to an address not yet verified: it names what it got, not the text
    // itself (docs/emails.md); the agency's notification shows the value.
    expect(notification?.text).toContain('Budget envisagé : 5 000 €');
  });

  it('is allowed in the webhook event’s fields (docs/webhooks.md)', () => {
    expect(JSON.stringify(webhookEventSchema(KINDS))).toContain('"BUDGET"');
  });
});
