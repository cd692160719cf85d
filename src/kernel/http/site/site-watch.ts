import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { readManifest } from './site-files.ts';

/**
 * Notices a new build of dist/ while the server runs (docs/site.md, "Serving"): `leadgate build`
 * writes a sibling folder and renames it onto DIST_DIR (src/features/site/output.ts), which the
 * parent folder's watch reports as a rename of DIST_DIR's name. The build is taken once its
 * manifest says it is another one (`builtAt`); events close together are one change.
 */
export interface SiteWatch {
  close(): void;
}

export interface SiteWatchOptions {
  /** Called with the new build's time, after it is readable. */
  onBuild(builtAt: string): void;
  onError(error: unknown): void;
  /** Events within this delay are one swap (a build renames twice). */
  settleMs?: number;
}

export function watchSite(dir: string, options: SiteWatchOptions): SiteWatch {
  const target = resolve(dir);
  const name = basename(target);
  let builtAt = readManifest(target).builtAt;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    timer = undefined;
    try {
      const next = readManifest(target).builtAt;
      if (next === builtAt) return;
      options.onBuild(next);
      // Only once served: a build that could not be read is tried again at the next event.
      builtAt = next;
    } catch (error) {
      // Between the two renames dist/ is briefly absent: the second event checks again.
      options.onError(error);
    }
  };
  let watcher: FSWatcher | undefined = watch(dirname(target), (_event, file) => {
    if (file !== null && file !== name) return;
    clearTimeout(timer);
    timer = setTimeout(check, options.settleMs ?? 50);
    timer.unref();
  });
  watcher.on('error', options.onError);
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
      watcher = undefined;
    },
  };
}
