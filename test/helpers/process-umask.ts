import { afterAll } from 'vitest';

/*
 * docs/quality.md, « How the suite runs »: files share their worker's process (isolate: false), and
 * a command run in this process (`serve`, `backup`…) makes its files private with umask 077
 * (docs/operations.md, « Private by default »). Each file gives the umask back as it found it, so a
 * later file's scratch folders stay readable by the `nobody` user its services run as.
 */
const found = process.umask();
afterAll(() => {
  process.umask(found);
});
