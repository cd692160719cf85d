import { servedMailIdentity } from '../features/site/served-identity.ts';
import { createDispatcherFor } from '../wiring/dispatcher-setup.ts';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { summarizeBacklog } from '../features/delivery/backlog.ts';
import type { Dispatcher } from '../features/delivery/dispatcher.ts';
import { describeError } from '../features/delivery/deadline.ts';
import { UNFINISHED_STEP_STATUSES } from '../kernel/lead/deliveries.ts';
import type { Destination } from '../kernel/lead/destination.ts';
import type { LeadLog } from '../features/delivery/lead-log.ts';
import { LEAD_STATUSES } from '../kernel/lead/lead-status.ts';
import type { Provider } from '../features/delivery/provider.ts';
import type { Store } from '../kernel/journal/store.ts';
import { createLogger } from '../kernel/observability/logging.ts';
import { createProvider } from '../providers/create-provider.ts';
import { withExistingStore, withStore } from './leads-commands.ts';

/**
 * Runs `task` with a dispatcher over the configured provider, after checking that this process can
 * deliver what waits (docs/delivery.md): steps journaled for a provider this process does not have
 * (a cron job with an empty environment) stop it before it writes anything. (A provider missing a
 * setting already stopped it in createProvider.)
 */
export async function withDispatcher<T>(
  config: Config,
  out: NodeJS.WritableStream,
  log: LeadLog,
  options: { refuseForeignSteps: boolean },
  task: (dispatcher: Dispatcher, store: Store) => Promise<T>,
): Promise<T> {
  return withStore(config, async (store) => {
    const provider = createProvider(config, store, servedMailIdentity);
    try {
      await checkProvider(provider, store, out, options.refuseForeignSteps);
      const dispatcher = createDispatcherFor(config, store, provider, log);
      return await task(dispatcher, store);
    } finally {
      await provider.close();
    }
  });
}

async function checkProvider(
  provider: Provider,
  store: Store,
  out: NodeJS.WritableStream,
  refuseForeignSteps: boolean,
): Promise<void> {
  const ours = new Set(provider.destinations.map((destination) => destination.provider));
  for (const [name, count] of await store.deliveries.unfinishedByProvider()) {
    if (ours.has(name)) continue;
    const line = `${count} step(s) wait for provider ${name}, which this process is not configured for (MAIL_PROVIDER=${provider.name})`;
    if (refuseForeignSteps) {
      throw new InvalidConfigError(`${line}: run it with the server's configuration`);
    }
    out.write(`${line}; they are left alone.\n`);
  }
}

/**
 * `leads replay`: delivers now every lead with an unfinished step (pending, retrying, or dead),
 * whatever its schedule. Steps already done are skipped, however old the first attempt. With a
 * `destination` (a name `leads status` shows), only that destination's steps are run.
 */
export async function replayLeads(
  config: Config,
  out: NodeJS.WritableStream,
  destination?: string,
  /** Each attempt's line, and one per lead replayed (docs/operations.md); stdout keeps the report. */
  log: LeadLog = createLogger(config, process.stderr),
): Promise<{ delivered: number; failed: number }> {
  return withDispatcher(
    config,
    out,
    log,
    { refuseForeignSteps: true },
    async (dispatcher, store) => {
      const names = dispatcher.destinations.map((known) => known.name);
      if (destination !== undefined && !names.includes(destination)) {
        throw new InvalidConfigError(
          `--destination ${destination} is not one of this configuration's destinations (${names.join(', ')})`,
        );
      }
      const only = (candidate: Destination) =>
        destination === undefined || candidate.name === destination;
      const counts = { delivered: 0, failed: 0 };
      for (const entry of await store.list({ statuses: ['pending', 'failed', 'dead'] })) {
        if (destination !== undefined && !(await waitsFor(store, entry.lead.id, destination))) {
          continue;
        }
        if ((await store.deliveries.steps(entry.lead.id)).length === 0) {
          // Journaled before delivery steps: only the server's own dispatcher knows its destinations.
          counts.failed += 1;
          log
            .child({ leadId: entry.lead.id })
            .warn({}, 'replay: lead left alone, it has no step until serve or dispatch plans it');
          out.write(
            `échec    ${entry.lead.id}  aucune étape prévue : leadgate serve ou dispatch les prévoit\n`,
          );
          continue;
        }
        const { finished, failures } = await dispatcher.deliverLead(entry.lead.id, { only });
        const leadLog = log.child({ leadId: entry.lead.id });
        if (finished) {
          counts.delivered += 1;
          leadLog.info({ destination }, 'replay: lead delivered');
          out.write(`livrée   ${entry.lead.id}\n`);
        } else {
          counts.failed += 1;
          const why = failures.map((failure) => describeError(failure.error)).join('; ');
          leadLog.warn({ destination, error: why }, 'replay: lead not delivered');
          out.write(`échec    ${entry.lead.id}  ${why || 'en cours de livraison ailleurs'}\n`);
        }
      }
      out.write(`${counts.delivered} livrée(s), ${counts.failed} en échec.\n`);
      return counts;
    },
  );
}

async function waitsFor(store: Store, leadId: string, destination: string): Promise<boolean> {
  return (await store.deliveries.steps(leadId)).some(
    (step) => step.destination === destination && UNFINISHED_STEP_STATUSES.includes(step.status),
  );
}

/** `leadgate dispatch`: the background delivery loop alone, for a separate worker, until stopped. */
export async function dispatch(
  config: Config,
  out: NodeJS.WritableStream,
  stopped: Promise<unknown>,
  ready: () => void = () => {},
) {
  // A worker's lines go where `serve`'s do: JSON on stdout, for journald or the container's log driver.
  const log = createLogger(config, out);
  await withDispatcher(config, out, log, { refuseForeignSteps: false }, async (dispatcher) => {
    dispatcher.start();
    ready();
    out.write('Livraison en cours ; SIGTERM ou Ctrl-C pour arrêter.\n');
    await stopped;
    await dispatcher.stop();
  });
}

/**
 * `leads status`: the backlog per destination (steps), the age of the oldest undelivered lead, and
 * the leads per status under the names `leads list --status` takes, so the two commands agree.
 */
export async function deliveryStatus(config: Config, out: NodeJS.WritableStream) {
  const [lines, leads] = await withExistingStore(config, (store) =>
    Promise.all([store.deliveries.backlog(), store.countByStatus()]),
  );
  const summary = summarizeBacklog(lines, new Date());
  for (const line of lines) {
    out.write(
      `${`${line.destination} (${line.provider})`.padEnd(36)}  en attente ${line.pending}  en reprise ${line.retrying}  abandonnées ${line.dead}  refusées ${line.refused}\n`,
    );
  }
  const age =
    summary.oldestAgeSeconds === null
      ? 'aucune demande en attente'
      : `plus ancienne demande non livrée : ${summary.oldestAgeSeconds} s`;
  out.write(
    `Total : en attente ${summary.pending}, en reprise ${summary.retrying}, abandonnées ${summary.dead}, refusées ${summary.refused} ; ${age}.\n`,
  );
  const counts = LEAD_STATUSES.map((status) => `${status} ${leads[status]}`).join(', ');
  out.write(`Demandes (leads list --status) : ${counts}.\n`);
  return { ...summary, leads };
}
