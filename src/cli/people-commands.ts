import { servedMailIdentity } from '../features/site/served-identity.ts';
import type { Config } from '../kernel/config.ts';
import { forgetPerson, type ForgetOutcome } from '../features/privacy/forget-person.ts';
import { personReport } from '../features/privacy/person-report.ts';
import { createProvider } from '../providers/create-provider.ts';
import { withExistingStore, withStore } from './leads-commands.ts';

/** How the address is named in logs: the start of its salted hash, never the address itself. */
const shortReference = (reference: string) => reference.slice(0, 16);

/** Right of access (RGPD art. 15): everything the journal keeps about the address, as JSON. */
export async function showPerson(
  config: Config,
  address: string,
  out: NodeJS.WritableStream,
  log: NodeJS.WritableStream,
): Promise<void> {
  const file = await withExistingStore(config, (store) => store.people.show(address));
  out.write(`${personReport(address, file)}\n`);
  log.write(
    `people show ${shortReference(file.reference)} : ${file.leads.length} demande(s), ${Object.keys(file.related).length} autre(s) table(s).\n`,
  );
}

/** Right to erasure (RGPD art. 17): see forgetPerson. Exit code 1 when the provider must be asked again. */
export async function forgetPersonCommand(
  config: Config,
  address: string,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  return withStore(config, async (store) => {
    const provider = createProvider(config, store, servedMailIdentity);
    try {
      const outcome = await forgetPerson({
        store,
        provider,
        address,
        timeoutMs: config.mail.timeoutMs,
      });
      return report(outcome, provider.name, out);
    } finally {
      await provider.close();
    }
  });
}

function report(outcome: ForgetOutcome, providerName: string, out: NodeJS.WritableStream): boolean {
  const rows = Object.entries(outcome.deleted)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ');
  out.write(
    `people forget ${shortReference(outcome.reference)} : ${outcome.leadIds.length} demande(s) effacée(s)${rows ? ` (lignes : ${rows})` : ''} ; seule l’empreinte salée de l’adresse et la date restent.\n`,
  );
  // The ids, so the operator can match this erasure with the lead's earlier log lines.
  if (outcome.leadIds.length > 0) out.write(`demandes effacées : ${outcome.leadIds.join(' ')}\n`);
  if (outcome.provider) out.write(`${outcome.provider}\n`);
  else {
    out.write(
      `${providerName} n’a pas pu effacer le contact (${outcome.providerError?.message}) : relancez la commande.\n`,
    );
  }
  return outcome.providerError === undefined;
}
