import type { Config } from '../kernel/config.ts';
import { releaseSpamLead, type Refusal } from '../features/inbox/spam-release.ts';
import type { LeadLog } from '../features/delivery/lead-log.ts';
import { createLogger } from '../kernel/observability/logging.ts';
import { withDispatcher } from './delivery-commands.ts';

/**
 * `leads release <id>` (docs/operations.md): plans the delivery of a lead the bot trap caught, with
 * this process's destinations, hence the server's configuration (checked as for `leads replay`).
 * The running dispatcher delivers it. A refusal is one line on stderr and `false` (exit 1).
 */
export async function releaseLead(
  config: Config,
  id: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
  log: LeadLog = createLogger(config, process.stderr),
): Promise<boolean> {
  const release = await withDispatcher(
    config,
    out,
    log,
    { refuseForeignSteps: true },
    (dispatcher, store) =>
      releaseSpamLead(id, {
        store,
        destinations: dispatcher.destinations,
        newsletter: { doubleOptIn: config.newsletterDoubleOptIn, journal: store.newsletter },
      }),
  );
  if (!release.released) {
    err.write(`${refusalLine(id, release)}\n`);
    return false;
  }
  const destinations = release.steps.map((step) => step.destination);
  log.child({ leadId: id }).info({ destinations }, 'release: spam lead released for delivery');
  const planned = release.steps.map((step) => `${step.destination} (${step.provider})`);
  out.write(
    `libérée  ${id}  ${planned.join(', ') || 'aucune étape'} : le serveur (ou leadgate dispatch) la livre.\n`,
  );
  return true;
}

function refusalLine(id: string, release: Refusal): string {
  switch (release.why) {
    case 'unknown':
      return `Aucune demande ${id} dans le journal.`;
    case 'not-spam':
      return `La demande ${id} est « ${release.status} », pas « spam » : rien à libérer.`;
    case 'link-expired':
      return `La demande ${id} est une inscription de plus de 7 jours : son lien de confirmation aurait expiré ; la personne doit s’inscrire à nouveau.`;
  }
}
