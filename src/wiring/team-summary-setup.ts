import type { Config } from '../kernel/config.ts';
import { parseBusinessHours } from '../features/inbox/business-hours.ts';
import { ConfigurationError } from '../kernel/lead/errors.ts';
import type { LeadLog } from '../features/delivery/lead-log.ts';
import type { Provider } from '../features/delivery/provider.ts';
import type { Store } from '../kernel/journal/store.ts';
import { createTeamSummary, type TeamSummary } from '../features/inbox/team-summary.ts';
import type { MailIdentity } from '../kernel/mail/mail-identity.ts';
import { teamSummaryEmail } from '../features/inbox/team-summary-email.ts';
import { teamSummaryFacts } from '../features/inbox/team-summary-facts.ts';
import { deliveryRetryPolicy } from './dispatcher-setup.ts';

/** How often each node looks whether the day's summary is due or waits to be retried. */
const CHECK_EVERY_MS = 60_000;

/**
 * docs/workspace.md, « Le point du matin »: the team's daily summary over this store and provider,
 * or undefined when TEAM_SUMMARY_TIME is `off`. It goes through the provider's `sendMail`, as the
 * agency's other e-mails outside a lead's steps; the e-mail's id is the day, so a provider that
 * deduplicates (Brevo's idempotency key, the outbox's file name) keeps one per day.
 */
export function createTeamSummaryFor(
  config: Config,
  store: Store,
  provider: Provider,
  identity: MailIdentity,
  log: LeadLog,
  now: () => Date = () => new Date(),
): TeamSummary | undefined {
  const at = config.workspace.summaryAt;
  if (at === undefined) return undefined;
  const hours = parseBusinessHours(config.workspace.businessHours);
  return createTeamSummary({
    journal: store.teamSummaries,
    minutesAfterMidnight: at,
    closesAt: hours.closesAt,
    policy: deliveryRetryPolicy(config),
    timeoutMs: config.mail.timeoutMs,
    now,
    async send(run, signal) {
      if (!provider.sendMail) throw new ConfigurationError(`${provider.name} sends no e-mail`);
      const facts = await teamSummaryFacts(store, now(), hours, at);
      const message = teamSummaryEmail(facts, {
        from: config.mail.from,
        agencyEmail: config.mail.agencyEmail,
        siteUrl: config.siteUrl,
        identity,
      });
      return provider.sendMail(message, { id: run.day, receivedAt: run.dueAt }, signal);
    },
    onSettled(run, outcome) {
      const line = { day: run.day, status: outcome.status };
      if (outcome.status === 'done') log.info(line, 'team summary: sent');
      else
        log.warn(
          { ...line, error: 'error' in outcome ? outcome.error : undefined },
          'team summary: not sent',
        );
    },
  });
}

/** Every minute, in each `leadgate serve`: the journal makes sure one node sends each day's summary. */
export function startTeamSummary(summary: TeamSummary, log: LeadLog): () => void {
  const timer = setInterval(() => {
    summary
      .tick()
      .catch((error: unknown) => log.error({ err: error }, 'team summary: round failed'));
  }, CHECK_EVERY_MS);
  // A pending round must not keep a stopping process alive.
  timer.unref();
  return () => clearInterval(timer);
}
