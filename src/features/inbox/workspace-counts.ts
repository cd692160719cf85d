import type { Store } from '../../kernel/journal/store.ts';
import { filterOf } from './inbox-filters.ts';

/**
 * docs/workspace.md, « La boîte de réception »: the navigation's counts on every page
 * (« À traiter 7 · À vérifier 2 »), by navigation key; the same filters as the lists they lead to.
 * « À vérifier » holds the leads the bot trap kept and the prospects' messages no lead was found
 * for (docs/inbound.md).
 */
export async function workspaceCounts(store: Store): Promise<Record<string, number>> {
  const [toHandle, held, unmatched] = await Promise.all([
    store.work.page({ ...filterOf({}), limit: 0 }),
    store.work.page({ held: true, limit: 0 }),
    store.inbound.countUnmatched(),
  ]);
  return { prospects: toHandle.total, 'a-verifier': held.total + unmatched };
}
