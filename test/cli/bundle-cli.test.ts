import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshBundle } from '../../src/cli/fresh-bundle.js';
import { bundleCli } from '../../src/cli/bundle-cli.ts';
import { hasTool } from '../helpers/tools.ts';
import { startWebhookReceiver, TEST_WEBHOOK_SECRET } from '../helpers/webhook-receiver.ts';
import { startRedisServer } from '../scale/redis-server.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * docs/performance.md (cold start): `leadgate build` bundles the CLI and bin/leadgate.js runs that bundle. It
 * must behave as the sources do, including code that finds files next to itself (the site build).
 */
describe('the CLI bundle written by leadgate build (cold start, docs/performance.md)', () => {
  let dir: string;
  let cacheDir: string;
  let entry: string;
  const env = (extra: Record<string, string>) => ({
    ...process.env,
    SITE_URL: 'https://agence.example',
    DIST_DIR: join(dir, 'dist'),
    DATA_DIR: join(dir, 'data'),
    ...extra,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadgate-bundle-'));
    // Inside the checkout, as the real one, so the packages left out of it resolve from node_modules;
    // published even if an edit lands meanwhile, since this bundle is only used here.
    mkdirSync(join(process.cwd(), 'node_modules', '.cache'), { recursive: true });
    cacheDir = mkdtempSync(join(process.cwd(), 'node_modules', '.cache', 'leadgate-test-'));
    expect(await bundleCli({ cacheDir, settleMs: -Infinity })).toBeUndefined();
    const pointer = JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8'));
    entry = join(cacheDir, pointer.entry);
  }, 60_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('bundles no dependency that finds files next to itself (only our sources are rewritten)', () => {
    const { inputs } = JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8')) as {
      inputs: [string][];
    };
    const dependencies = inputs
      .map(([path]) => path)
      .filter((path) => path.includes('node_modules'));
    expect(dependencies.length).toBeGreaterThan(100);
    const urlUsers = dependencies.filter((path) =>
      readFileSync(path, 'utf8').includes(['import', 'meta', 'url'].join('.')),
    );
    expect(urlUsers).toEqual([]);
  });

  it('is one CommonJS file in ASCII, so V8 keeps its source at one byte a character (docs/performance.md)', () => {
    const scripts = readdirSync(join(entry, '..')).filter((name) => /\.[cm]?js$/.test(name));
    expect(scripts).toEqual(['cli.cjs']);
    expect(entry.endsWith('cli.cjs')).toBe(true);
    expect(readFileSync(entry, 'utf8')).not.toMatch(/[\u0080-\uffff]/);
  });

  it('builds the site from the bundle (its files found from the sources, not the bundle)', () => {
    const build = spawnSync(process.execPath, [entry, 'build'], { env: env({}), encoding: 'utf8' });
    expect(build.stderr).not.toMatch(/Error/);
    expect(build.status).toBe(0);
    expect(existsSync(join(dir, 'dist', 'site-manifest.json'))).toBe(true);
  }, 60_000);

  it('serves the API and the site from the bundle, its lazily loaded packages included', async () => {
    // Redis counters and a webhook: ioredis and undici are modules the bundle evaluates only when set
    // (docs/performance.md, starts), and a CommonJS package's dynamic import differs from Node's there.
    const redis = hasTool('redis-server') ? await startRedisServer() : undefined;
    const receiver = await startWebhookReceiver();
    const port = await freePort();
    const server = spawn(process.execPath, [entry, 'serve'], {
      env: env({
        PORT: String(port),
        HOST: '127.0.0.1',
        WEBHOOK_URLS: receiver.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ...(redis ? { REDIS_URL: redis.url } : {}),
      }),
      stdio: 'ignore',
    });
    try {
      let health: Response | undefined;
      for (let attempt = 0; attempt < 300 && !health; attempt++) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return undefined;
        });
      }
      expect(health?.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/services`, {
        headers: { accept: 'text/markdown' },
      });
      expect([page.status, page.headers.get('content-type')]).toEqual([
        200,
        'text/markdown; charset=utf-8',
      ]);
      const lead = await fetch(`http://127.0.0.1:${port}/api/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'lea@example.fr', firstName: 'Léa' }),
      });
      expect(await lead.json()).toMatchObject({ success: true, existing: false });
      await expect.poll(() => receiver.received.length, { interval: 50 }).toBeGreaterThan(0);
      expect(receiver.received.map((hook) => hook.verifyError ?? 'verified')).toEqual(['verified']);
    } finally {
      // Its graceful shutdown still writes to DATA_DIR: wait for it before afterAll removes the folder.
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      await receiver.close();
      await redis?.stop();
    }
  }, 60_000);

  describe('its freshness check (src/cli/fresh-bundle.js)', () => {
    type Witness = [path: string, mtimeMs: number, size: number];
    const pointerPath = () => join(cacheDir, 'current.json');
    const cacheUrl = () => pathToFileURL(`${cacheDir}/`);
    let original: string;
    beforeAll(() => {
      original = readFileSync(pointerPath(), 'utf8');
    });
    afterAll(() => writeFileSync(pointerPath(), original));
    const witnesses = () => (JSON.parse(original) as { inputs: Witness[] }).inputs;
    /** The pointer as written, with one witness recorded with another size: as if that file changed. */
    const changed = (match: (path: string) => boolean) => {
      const pointer = JSON.parse(original) as { inputs: Witness[] };
      const witness = pointer.inputs.find(([path]) => match(path))!;
      witness[2] += 1;
      writeFileSync(pointerPath(), JSON.stringify(pointer));
    };

    it('stands the project’s files one by one, a package by its package.json', () => {
      const paths = witnesses().map(([path]) => path);
      expect(paths).toContain('src/cli/main.ts');
      expect(paths.some((path) => path.endsWith('node_modules/fastify/package.json'))).toBe(true);
      expect(paths.some((path) => path.endsWith('node_modules/fastify/fastify.js'))).toBe(false);
    });

    it('gives the bundle while nothing changed, and nothing once a source or a package did', () => {
      writeFileSync(pointerPath(), original);
      expect(freshBundle(cacheUrl())?.href).toBe(pathToFileURL(entry).href);
      changed((path) => path === 'src/cli/main.ts');
      expect(freshBundle(cacheUrl())).toBeUndefined();
      changed((path) => path.endsWith('node_modules/fastify/package.json'));
      expect(freshBundle(cacheUrl())).toBeUndefined();
    });
  });
});
