import { isBusinessDay, parisDay, parisTimeOn } from './business-hours.ts';
import { describeError, withDeadline } from '../delivery/index.ts';
import type { StepOutcome } from '../../kernel/lead/deliveries.ts';
import { afterFailure, type RetryPolicy } from '../delivery/index.ts';

/*
 * The team's daily summary (docs/workspace.md, « Le point du matin »): once a business day, at
 * TEAM_SUMMARY_TIME (Europe/Paris), one e-mail to the agency listing the leads still waiting for an
 * answer. Like a lead's steps (docs/delivery.md), each day's summary is a row of the journal, planned
 * by whichever node sees the time first (the day is its key: planned once), leased before it is sent
 * (one node sends it) and settled after, retried with the delivery policy until it is sent. The
 * delivery steps belong to leads, so the summary keeps this small queue of its own.
 */

/** One day's summary, as a node leases it. */
export interface SummaryRun {
  /** The Paris day, "YYYY-MM-DD": the key, so no day is planned twice. */
  day: string;
  /** When it became due (TEAM_SUMMARY_TIME that day). */
  dueAt: Date;
  attempts: number;
}

/**
 * The summaries' side of the journal, on both dialects (src/features/inbox/sql-team-summaries.ts).
 */
export interface TeamSummaryJournal {
  /** Plans the day's summary, due at `dueAt`; a day already planned (by any node) is left alone. */
  plan(day: string, dueAt: Date): Promise<void>;
  /** Leases the summaries due and free until `leaseUntil`: no two nodes hold the same one. */
  claim(now: Date, leaseUntil: Date): Promise<SummaryRun[]>;
  settle(day: string, outcome: StepOutcome, now: Date): Promise<void>;
}

export interface TeamSummaryDependencies {
  journal: TeamSummaryJournal;
  /** TEAM_SUMMARY_TIME: minutes after midnight, Paris time. */
  minutesAfterMidnight: number;
  /** BUSINESS_HOURS' closing, minutes after midnight: no summary leaves after it. */
  closesAt: number;
  /** Builds the summary as of now and hands it to the provider; resolves with its account. */
  send(run: SummaryRun, signal: AbortSignal): Promise<string>;
  policy: RetryPolicy;
  /** PROVIDER_TIMEOUT_MS: bound on one attempt; the lease outlasts it. */
  timeoutMs: number;
  now(): Date;
  random?: () => number;
  onSettled?(run: SummaryRun, outcome: StepOutcome): void;
}

/**
 * A summary not sent by the close of its business day is replaced by the next one, never sent
 * late: a server started at 19:40 sends nothing that evening (docs/workspace.md).
 */
const SUPERSEDED = 'superseded: past the close of its business day, the next summary replaces it';

export function createTeamSummary(deps: TeamSummaryDependencies) {
  const random = deps.random ?? Math.random;
  /** The close of a day's sending: BUSINESS_HOURS' closing, or an hour after a later summary time. */
  const closeOf = (day: string) =>
    parisTimeOn(day, Math.max(deps.closesAt, deps.minutesAfterMidnight + 60));

  async function attempt(run: SummaryRun, now: Date): Promise<StepOutcome> {
    if (now >= closeOf(run.day)) return { status: 'dead', error: SUPERSEDED };
    try {
      const detail = await withDeadline(deps.timeoutMs, (signal) => deps.send(run, signal));
      return { status: 'done', detail };
    } catch (error) {
      const failure = {
        attempts: run.attempts + 1,
        receivedAt: run.dueAt,
        error: describeError(error),
      };
      return afterFailure(deps.policy, failure, now, random);
    }
  }

  return {
    /** One round: plan today's summary once its time has come, then send what is due. */
    async tick(): Promise<void> {
      const now = deps.now();
      const day = parisDay(now);
      const dueAt = parisTimeOn(day, deps.minutesAfterMidnight);
      if (isBusinessDay(day) && now >= dueAt && now < closeOf(day)) {
        await deps.journal.plan(day, dueAt);
      }
      const leaseUntil = new Date(now.getTime() + deps.timeoutMs + 30_000);
      for (const run of await deps.journal.claim(now, leaseUntil)) {
        const outcome = await attempt(run, now);
        await deps.journal.settle(run.day, outcome, deps.now());
        deps.onSettled?.(run, outcome);
      }
    },
  };
}

export type TeamSummary = ReturnType<typeof createTeamSummary>;
