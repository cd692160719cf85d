import { servedMailIdentity } from '../features/site/served-identity.ts';
import type { Config } from '../kernel/config.ts';
import { createProvider } from '../providers/create-provider.ts';
import { withStore } from './leads-commands.ts';

/**
 * `leadgate config check` (docs/brevo.md): asks the provider's account, without changing anything,
 * whether it holds what the first lead will need, and says in French what is missing. True when
 * nothing is; a provider with no account to read (outbox, SMTP) has nothing to check.
 */
export async function checkProviderAccount(
  config: Config,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  return withStore(config, async (store) => {
    const provider = createProvider(config, store, servedMailIdentity);
    try {
      if (!provider.checkAccount) {
        out.write(
          `MAIL_PROVIDER=${provider.name} : aucun compte à vérifier chez le fournisseur.\n`,
        );
        return true;
      }
      const missing = await provider.checkAccount(AbortSignal.timeout(config.mail.timeoutMs * 5));
      if (missing.length === 0) {
        out.write(
          `MAIL_PROVIDER=${provider.name} : le compte a les attributs, les listes et l’expéditeur qu’il faut.\n`,
        );
        return true;
      }
      out.write(`MAIL_PROVIDER=${provider.name} : à corriger avant la première demande :\n`);
      for (const line of missing) out.write(`- ${line}\n`);
      return false;
    } finally {
      await provider.close();
    }
  });
}
