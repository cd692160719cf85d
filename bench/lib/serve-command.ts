import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The arguments `npm start` gives node (its flags, then `bin/leadgate.js serve`), read from
 * package.json: every benchmark measures the server as it is started, flags included
 * (docs/performance.md, "Memory").
 */
export function serveArgumentsOf(checkout: string): string[] {
  const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  // `exec`: the shell npm runs the script in becomes node, so the SIGTERM npm forwards reaches the
  // server (docs/reliability.md, "Graceful shutdown"); releases before it started node plainly.
  const [command, ...args] = manifest.scripts.start.replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node' || args.at(-1) !== 'serve')
    throw new Error(
      `package.json start is not "exec node … bin/leadgate.js serve": ${manifest.scripts.start}`,
    );
  return args;
}

/** `node <SERVE_ARGS>` runs leadgate as `npm start` does. */
export const SERVE_ARGS: readonly string[] = serveArgumentsOf(
  fileURLToPath(new URL('../..', import.meta.url)),
);
