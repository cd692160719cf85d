import type { Store } from '../../kernel/journal/store.ts';
import { filterOf } from './inbox-filters.ts';

/**
 * docs/workspace.md, « À traiter »: the navigation's counts on every page (« À traiter 7 ·
 * À vérifier 2 »), by navigation key; the same filters as the lists they lead to.
 */
export async function workspaceCounts(store: Store): Promise<Record<string, number>> {
  const [toHandle, held] = await Promise.all([
    store.work.page({ ...filterOf({}), limit: 0 }),
    store.work.page({ held: true, limit: 0 }),
  ]);
  return { prospects: toHandle.total, 'a-verifier': held.total };
}
