import { Type, type Static, type TSchema } from 'typebox';
import { CONSENT_CHANNELS } from './consent.ts';
import { LEAD_KINDS, type LeadKindDescriptor } from './lead-kinds.ts';

/** Which text the person agreed to, when and how (docs/consent.md); the network is not sent. */
const WebhookConsentSchema = Type.Object(
  {
    version: Type.String({ description: 'Version du texte de consentement (docs/consent.md).' }),
    wordingSha256: Type.String({ description: 'SHA-256 (hex) du texte exact accepté.' }),
    givenAt: Type.String({ format: 'date-time', description: 'Moment du consentement.' }),
    channel: Type.Union(
      CONSENT_CHANNELS.map((channel) => Type.Literal(channel)),
      { description: 'Formulaire du site, programme (API), agent IA ou serveur MCP.' },
    ),
    page: Type.Union([Type.String(), Type.Null()], {
      description: 'Page ou écran qui montrait le texte, s’il est connu.',
    }),
  },
  { additionalProperties: false },
);

/**
 * The body of every webhook leadgate sends (docs/webhooks.md). The envelope follows the Standard
 * Webhooks payload convention (`type`, `timestamp`, `data`); `data.fields` is the request exactly as
 * the API accepted it, under the spec's own field names (spec 2.1–2.3).
 */
function leadEvent<Kind extends string, Fields extends TSchema>(kind: Kind, fields: Fields) {
  return Type.Object(
    {
      type: Type.Literal(`lead.${kind}` as `lead.${Kind}`),
      timestamp: Type.String({
        format: 'date-time',
        description: 'Moment où leadgate a reçu la demande (identique à data.receivedAt).',
      }),
      data: Type.Object(
        {
          id: Type.String({
            description: 'Identifiant de la demande dans le journal de leadgate.',
          }),
          receivedAt: Type.String({ format: 'date-time', description: 'Réception de la demande.' }),
          consent: Type.Union([WebhookConsentSchema, Type.Null()], {
            description:
              'Le consentement enregistré avec la demande ; null pour une demande reçue avant son enregistrement.',
          }),
          fields,
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );
}

/** One event per lead kind, in the descriptors' order (docs/architecture.md: a new kind adds its own). */
export function webhookEventSchema(kinds: readonly LeadKindDescriptor[]) {
  return Type.Union(kinds.map((descriptor) => leadEvent(descriptor.kind, descriptor.schema)));
}

export const WebhookEventSchema = webhookEventSchema(LEAD_KINDS);

/** Each kind's event with its own fields (a union over a list is too wide for TypeBox to type). */
type EventOf<D> =
  D extends LeadKindDescriptor<infer K, infer S>
    ? Static<ReturnType<typeof leadEvent<K, S>>>
    : never;
export type WebhookEvent = EventOf<(typeof LEAD_KINDS)[number]>;
