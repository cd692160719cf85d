import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Type, type Static } from 'typebox';
import { describe, expect, it } from 'vitest';
import type { Lead } from '../../src/kernel/lead/lead.ts';
import { useKindsApi } from '../helpers/kinds-api.ts';
import { confirmationEmail } from '../../src/features/intake/confirmation-email.ts';
import { agencyNotification } from '../../src/features/intake/notification-email.ts';
import { mcpInstructions } from '../../src/mcp/server-info.ts';
import { serverCard } from '../../src/mcp/server-card.ts';
import { buildOpenApiDocument } from '../../src/kernel/openapi/document.ts';
import { apiEndpoints } from '../../src/kernel/schemas/api-endpoints.ts';
import { contactPayload } from '../../src/providers/brevo/brevo-contact.ts';
import { webhookEventFor } from '../../src/providers/webhooks/webhook-message.ts';
import {
  endpointCount,
  LEAD_KINDS,
  type LeadKindDescriptor,
} from '../../src/kernel/schemas/lead-kinds.ts';
import { webhookEventSchema } from '../../src/kernel/schemas/webhook-event.ts';
import { developersReference } from '../../src/features/site/developers-reference.ts';
import { llmsTxt } from '../../src/features/site/llms-files.ts';
import { mailIdentity } from '../../src/features/site/mail-identity.ts';

/*
 * docs/architecture.md: adding an endpoint is one request schema and one descriptor. This fixture
 * adds a fourth kind (a quote request) with nothing else, and checks that the routes, /openapi.json,
 * /developers, the e-mails and the Brevo contact all follow from those two.
 */
const QuoteRequestSchema = Type.Object(
  {
    mail: Type.String({ format: 'email', minLength: 1, maxLength: 254 }),
    given: Type.String({ minLength: 1, maxLength: 100 }),
    budget: Type.Optional(Type.String({ maxLength: 20, description: 'Budget envisagé.' })),
  },
  { additionalProperties: false },
);
type QuoteRequest = Static<typeof QuoteRequestSchema>;

const QUOTE: LeadKindDescriptor<'quote', typeof QuoteRequestSchema> = {
  kind: 'quote',
  schema: QuoteRequestSchema,
  schemaName: 'QuoteRequest',
  path: '/api/quote',
  operationId: 'requestQuote',
  summary: 'Demander un devis',
  description: 'Demande de devis chiffré.',
  thankYouPath: '/devis/merci',
  example: { mail: 'marie@example.fr', given: 'Marie' },
  tool: { name: 'request_quote', english: 'Ask the agency for a quote.' },
  fields: { email: 'mail', firstName: 'given' },
  answersExisting: true,
  confirmsToSender: true,
  notificationTitle: 'Nouvelle demande de devis',
  brevoList: { setting: 'auditListId', variable: 'BREVO_AUDIT_LIST_ID', required: false },
};
const KINDS: readonly LeadKindDescriptor[] = [...LEAD_KINDS, QUOTE];

const quoteLead = (data: QuoteRequest) =>
  ({ kind: 'quote', data, id: 'lead-1', receivedAt: new Date(0) }) as unknown as Lead;

describe('a fourth lead kind needs one schema and one descriptor (docs/architecture.md)', () => {
  const { app, submitted } = useKindsApi(KINDS, { existing: true });

  it('gets a route that validates with its schema and answers `existing`', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: '/api/quote',
      payload: { mail: 'marie@example.fr', given: 'Marie' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, existing: true });
    expect(submitted).toEqual([
      { kind: 'quote', data: { mail: 'marie@example.fr', given: 'Marie' } },
    ]);

    const missing = await app.inject({
      method: 'POST',
      url: '/api/quote',
      payload: { given: 'M' },
    });
    expect(missing.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/quote' })).statusCode).toBe(405);
  });

  it('appears in /openapi.json with its schema, and the prose counts five endpoints (privacy included)', () => {
    const document = buildOpenApiDocument('https://agence.example', KINDS);
    expect(document.paths['/api/quote']?.post.operationId).toBe('requestQuote');
    expect(document.components.schemas).toHaveProperty('QuoteRequest', QuoteRequestSchema);
    expect(Object.keys(document.paths)).toHaveLength(5);
    expect(document.info.description).toMatch(/^Cinq points d’accès /);
    expect(endpointCount(apiEndpoints(KINDS))).toBe('cinq points d’accès');
  });

  it('is counted and named in what agents read first: MCP instructions, server card, llms.txt', () => {
    const instructions = mcpInstructions(true, KINDS);
    expect(instructions).toMatch(/^Cinq outils /);
    expect(instructions).toContain('Five tools');
    for (const name of ['request_quote', 'request_privacy_action']) {
      expect(instructions).toContain(name);
    }
    const card = serverCard('https://agence.example', [], true, KINDS);
    expect(card.description).toBe(instructions);
    expect(card.tools.map((tool) => tool.name)).toContain('request_quote');
    const llms = llmsTxt([], 'https://agence.example', { kinds: KINDS });
    expect(llms).toContain('`request_quote`');
    expect(llms).toContain('cinq outils');
    expect(llms).toContain('les cinq points d’accès');
  });

  it('gets a /developers section with a row per field and examples', () => {
    const reference = developersReference('https://agence.example', { kinds: KINDS });
    const section = reference.slice(reference.indexOf('### POST /api/quote'));
    expect(section).toContain('| `budget` | texte | non | 20 | Budget envisagé. |');
    expect(section).toContain('curl -s https://agence.example/api/quote \\');
    expect(reference).toContain('Quatre points d’accès');
  });

  it('sends a confirmation and a notification built from the fields it names', () => {
    const settings = {
      from: 'Agence <bonjour@agence.example>',
      agencyEmail: 'equipe@agence.example',
      siteUrl: 'https://agence.example',
      identity: mailIdentity(),
    };
    const lead = quoteLead({ mail: 'marie@example.fr', given: 'Marie', budget: '5 000 €' });
    const confirmation = QUOTE.confirmsToSender
      ? confirmationEmail(lead, settings, QUOTE)
      : undefined;
    const notification = agencyNotification(lead, settings, QUOTE);
    expect(confirmation?.to.address).toBe('marie@example.fr');
    expect(notification?.subject).toBe('Nouvelle demande de devis : Marie');
    expect(notification?.replyTo).toEqual({ name: 'Marie', address: 'marie@example.fr' });
    expect(notification?.text).toContain('budget : 5 000 €');
  });

  it('joins the Brevo list its descriptor names, with the person’s first name', () => {
    const payload = contactPayload(
      quoteLead({ mail: 'marie@example.fr', given: 'Marie' }),
      { contactListId: 1, newsletterListId: 2, auditListId: 3 },
      QUOTE,
    );
    expect(payload).toEqual({
      email: 'marie@example.fr',
      attributes: { PRENOM: 'Marie' },
      listIds: [3],
      updateEnabled: false,
    });
  });

  it('has its webhook event (docs/webhooks.md): `lead.quote` with its own fields', () => {
    const ajv = new Ajv({ strict: false });
    addFormats.default(ajv, ['email', 'date-time']);
    const isEvent = ajv.compile(webhookEventSchema(KINDS));
    const event = webhookEventFor(quoteLead({ mail: 'marie@example.fr', given: 'Marie' }));
    expect(event.type).toBe('lead.quote');
    expect(isEvent(event), JSON.stringify(isEvent.errors)).toBe(true);
    expect(isEvent({ ...event, data: { ...event.data, fields: { given: 'Marie' } } })).toBe(false);
  });
});
