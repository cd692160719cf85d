import { emailTypoWarnings } from './email-typo.ts';
import { createHash } from 'node:crypto';
import type { LeadRequest } from '../../kernel/schemas/lead-kinds.ts';
import { withCanonicalQuestions } from './audit-answers.ts';
import { consentRecord, type ConsentEvidence } from '../../kernel/lead/consent.ts';
import type { Deliveries } from '../../kernel/lead/deliveries.ts';
import type { Dispatcher } from '../delivery/index.ts';
import { answerWarnings, type AnswerWarning } from './audit-answers.ts';
import {
  ConfigurationError,
  IdempotencyConflictError,
  UpstreamError,
} from '../../kernel/lead/errors.ts';
import type { Lead } from '../../kernel/lead/lead.ts';
import { newLeadId } from '../../kernel/lead/lead.ts';
import { newLeadSteps, type OptInSettings } from './new-lead-steps.ts';
import {
  confirmationStanding,
  type ConfirmationCap,
  type ConfirmationStanding,
} from './subscription-answer.ts';
import type { SpamReason } from '../../kernel/lead/spam-reason.ts';
import {
  DEFAULT_BUSINESS_HOURS,
  parseBusinessHours,
  promisedAnswerAt,
  type BusinessHours,
} from '../inbox/index.ts';

/** A key, or the same body sent again, answers the same request the same way for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * DELIVERY (docs/api-decisions.md): `queued` answers once the lead is durable and leaves delivery to
 * the dispatcher; `sync` also delivers within the request and reports a failure (502/500), the
 * dispatcher still retrying the lead afterwards.
 */
export type DeliveryMode = 'queued' | 'sync';

export interface IntakeOutcome {
  /** Whether the address was already known for this kind of request (spec 2.4), from the journal. */
  existing: boolean;
  /** A newsletter subscription: where the address stands (subscription-answer.ts). */
  confirmation?: ConfirmationStanding;
  /** What was kept as sent but deserves a look (audit-answers.ts); never a refusal. */
  warnings?: AnswerWarning[];
  /** The lead's id, a reference the person or their assistant can quote (docs/api-decisions.md). */
  reference: string;
  /** When the team answers at the latest, for a kind that promises an answer (answer-promise.ts). */
  answerBy?: Date;
}

/** What the caller knows of a request beyond its fields. */
export interface SubmitOptions {
  /** The Idempotency-Key header, or the `idempotency_key` argument of a tool call. */
  callerKey?: string | undefined;
  /** What the caller tells of the person's consent (none: the API's current wording). */
  consent?: ConsentEvidence | undefined;
  /**
   * Told the lead's id once known (a new lead's, or the one a repeat stands for), so the caller's
   * later log lines name it (docs/operations.md).
   */
  identified?: (leadId: string) => void;
  /** Caught by the site forms' bot trap, and why (docs/api-decisions.md, "Bot trap"). */
  spam?: SpamReason | undefined;
}

export interface IntakeDependencies {
  deliveries: Pick<Deliveries, 'accept'>;
  newsletter: OptInSettings;
  /** The per-mailbox cap, so a subscription's answer says whether a link goes out now. */
  confirmationCap?: ConfirmationCap;
  dispatcher: Pick<Dispatcher, 'destinations' | 'wake' | 'deliverLead'>;
  mode: DeliveryMode;
  /** BUSINESS_HOURS, for the answer's promised time (09:00–18:00 when absent). */
  businessHours?: BusinessHours;
  now?: () => Date;
  newId?: () => string;
}

/**
 * What accepting a lead means: one journal transaction writes the lead, its idempotency records and
 * one step per destination, so a lead is either durable with everything needed to deliver it, or
 * absent. A resubmission (same Idempotency-Key, or the same body to the same endpoint within 24 h)
 * is the same lead: answered again, delivered once.
 */
export function createIntake({
  deliveries,
  newsletter,
  confirmationCap,
  dispatcher,
  mode,
  businessHours = parseBusinessHours(DEFAULT_BUSINESS_HOURS),
  now = () => new Date(),
  newId = newLeadId,
}: IntakeDependencies) {
  return {
    /**
     * A `spam` request is answered as a real one would be, journaled as `spam` and handed to nobody;
     * its idempotency records live apart, so a person who later sends the same body is a new lead,
     * not its replay.
     */
    async submit(
      received: LeadRequest,
      { callerKey, consent, identified = () => {}, spam: spamReason }: SubmitOptions = {},
    ): Promise<IntakeOutcome> {
      const spam = spamReason !== undefined;
      const request = withCanonicalQuestions(received);
      const at = now();
      const { record } = consentRecord(request.kind, consent ?? { channel: 'api' }, at);
      const lead = { ...request, id: newId(), receivedAt: at, consent: record } as Lead;
      const fingerprint = fingerprintOf(request);
      const scope = spam ? 'spam ' : '';
      // A key names one request on one endpoint (docs/reliability.md): the same key sent to another
      // endpoint is another request, never a conflict with (nor a replay of) the first.
      const key = callerKey === undefined ? undefined : `${scope}${request.kind} ${callerKey}`;
      const acceptance = await deliveries.accept({
        lead,
        steps: spam ? [] : await newLeadSteps(lead, dispatcher.destinations, newsletter),
        spam,
        ...(spamReason && { spamReason }),
        idempotency: {
          key,
          bodyKey: `${scope}same-body:${fingerprint}`,
          fingerprint,
          expiredBefore: new Date(at.getTime() - IDEMPOTENCY_TTL_MS),
        },
      });
      if (acceptance.accepted === 'conflict') {
        throw new IdempotencyConflictError('different_request');
      }
      identified(acceptance.leadId);
      const outcome = async (): Promise<IntakeOutcome> => {
        const confirmation = await confirmationStanding(
          lead,
          acceptance,
          newsletter,
          confirmationCap,
        );
        const warnings = [...answerWarnings(received), ...emailTypoWarnings(lead)];
        // A retry under the same key is answered as the first was (docs/reliability.md); a repeat of
        // the same body is promised from its own arrival: never sooner than the first was.
        const promisedFrom =
          acceptance.accepted === 'again' && acceptance.by === 'key'
            ? acceptance.firstAnsweredAt
            : at;
        const answerBy = promisedAnswerAt(request.kind, promisedFrom, businessHours);
        return {
          existing: acceptance.existing,
          reference: acceptance.leadId,
          ...(answerBy && { answerBy }),
          ...(confirmation && { confirmation }),
          ...(warnings.length > 0 && { warnings }),
        };
      };
      if (spam) return outcome();
      if (mode === 'queued') {
        if (acceptance.accepted === 'new') dispatcher.wake();
        return outcome();
      }
      const { finished, failures } = await dispatcher.deliverLead(acceptance.leadId, {
        only: (destination) => !destination.backgroundOnly,
      });
      // The background-only steps (webhooks) go now, by the loop, whatever this request's outcome.
      if (acceptance.accepted === 'new') dispatcher.wake();
      if (finished) return outcome();
      const errors = failures.map((failure) => failure.error);
      const configuration = errors.find((error) => error instanceof ConfigurationError);
      if (configuration) throw configuration;
      throw new UpstreamError('the lead could not be handed over', { cause: errors[0] });
    },
  };
}

export type Intake = ReturnType<typeof createIntake>;

/** Same endpoint and same fields (in any order, JSON or form) → same fingerprint. */
export function fingerprintOf(request: LeadRequest): string {
  return createHash('sha256')
    .update(canonicalJson([request.kind, request.data]))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const entries = keys.map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
