// docs/architecture.md, « One request's path »: which source files run while one contact request
// goes from the socket to the outbox. V8's precise coverage counts the functions each file ran
// between two takes; the first request (and the server's start) is left out, so only the files of
// a request's own path are counted, not those of loading the app.
// Usage: node --import tsx scripts/request-path-files.ts [--list]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { createProvider } from '../src/providers/create-provider.ts';
import { createStore } from '../src/wiring/create-store.ts';
import { CONTACT_EXAMPLE } from '../src/kernel/schemas/examples.ts';
import { mailIdentity } from '../src/features/site/mail-identity.ts';

const ROOT = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-path-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, CONFIRMATION_DOMAIN_PER_HOUR: '0' });
const store = await createStore(config);
const provider = createProvider(config, store, mailIdentity());
const app = await buildApp({ config, store, provider });
await app.listen({ host: '127.0.0.1', port: 0 });
app.dispatcher.start();
const { port } = app.server.address() as { port: number };

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** One contact request, answered, then delivered to every destination by the dispatcher. */
async function oneContactRequest(n: number): Promise<void> {
  const body = { ...CONTACT_EXAMPLE, EMAIL: `path-${n}@example.fr` };
  const answer = await fetch(`http://127.0.0.1:${port}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 200) throw new Error(`contact answered ${answer.status}`);
  await answer.arrayBuffer();
  // Watched from the file system, so that the wait runs none of the code it counts: the agency's
  // notification and the visitor's confirmation, then a moment for the dispatcher to settle them.
  const outbox = join(dataDir, 'outbox');
  const mentions = () =>
    (existsSync(outbox) ? readdirSync(outbox) : []).filter((name) =>
      readFileSync(join(outbox, name), 'latin1').includes(body.EMAIL),
    );
  while (mentions().length < 2) await setTimeout(20);
  await setTimeout(500);
}

// What the server prepares once after listening (docs/performance.md) is left out with the first request.
await setTimeout(2000);
await oneContactRequest(1);
await session.post('Profiler.takePreciseCoverage'); // resets the counts: the first request is out
await oneContactRequest(2);
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');

const ran = result
  .filter((script) => script.url.startsWith('file://'))
  .filter((script) => script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
  .map((script) => relative(ROOT, fileURLToPath(script.url)))
  .filter((file) => /^(src|site)\//.test(file))
  .sort();
if (process.argv.includes('--list')) for (const file of ran) console.log(file);
console.log(`${ran.length} source files ran for one contact request, socket to outbox`);
await app.close();
await provider.close();
await store.close();
rmSync(dataDir, { recursive: true, force: true });
