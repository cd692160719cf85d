import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORM_TOKEN_FIELD } from '../src/kernel/schemas/bot-trap.ts';
import type { SiteManifest } from '../src/kernel/schemas/site-manifest.ts';
import { runWrk, type MeasuredLoad } from './lib/wrk.ts';
import { freePort, SITE_ENV, startServerProcess, type Started } from './lib/processes.ts';
import { CONNECTIONS } from './contact.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

/** The page both servers answer: a content page with both representations. */
export const PAGE = '/services';

export const ACCEPT = {
  html: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  markdown: 'text/markdown, text/html;q=0.5',
} as const;
export type Variant = keyof typeof ACCEPT;

export type SiteRound = Record<
  Variant,
  { leadgate: MeasuredLoad; nginx: MeasuredLoad; nodeFloor: MeasuredLoad }
>;

const TEMPLATE = fileURLToPath(new URL('nginx.conf.template', import.meta.url));

function startNginx(root: string, distDir: string, port: number): Promise<Started> {
  const manifest = JSON.parse(
    readFileSync(join(distDir, 'site-manifest.json'), 'utf8'),
  ) as SiteManifest;
  const page = manifest.pages.find((candidate) => candidate.path === PAGE);
  if (!page) throw new Error(`${PAGE} is not in ${distDir}/site-manifest.json`);
  const prefix = mkdtempSync(join(root, 'nginx-'));
  mkdirSync(join(prefix, 'logs'));
  const values: Record<string, string> = {
    USER: process.getuid?.() === 0 ? 'user root;' : '',
    PREFIX: prefix,
    PORT: String(port),
    ROOT: distDir,
    PAGE,
    HTML: `/${page.html}`,
    MARKDOWN: `/${page.markdown}`,
  };
  const config = readFileSync(TEMPLATE, 'utf8').replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`nginx.conf.template: unknown {{${key}}}`);
    return value;
  });
  writeFileSync(join(prefix, 'nginx.conf'), config);
  return startServerProcess(
    'nginx',
    ['-c', join(prefix, 'nginx.conf'), '-p', prefix],
    {},
    `http://127.0.0.1:${port}${PAGE}`,
  );
}

async function measure(
  server: Started,
  url: string,
  variant: Variant,
  seconds: number,
): Promise<MeasuredLoad> {
  const serverPid = server.child.pid!;
  const spec = { url, headers: { accept: ACCEPT[variant] }, connections: CONNECTIONS, serverPid };
  await runWrk({ ...spec, seconds: 2 }); // warm-up
  const result = await runWrk({ ...spec, seconds });
  if (result.failures > 0)
    throw new Error(
      `${url} (${variant}): ${result.failures} failed requests (${result.failureDetail})`,
    );
  return result;
}

/**
 * leadgate signs the token of a page's forms as it serves it
 * (src/features/intake/forms/live-form-page.ts); nginx cannot.
 */
const FORM_TOKEN = new RegExp(`name="${FORM_TOKEN_FIELD}" value="[^"]*"`, 'g');

/**
 * Both answer with the same page: checked once, so the comparison is of like with like. The form
 * token aside (a few bytes: leadgate's is signed, nginx's the build's placeholder), the same bytes.
 */
async function sameBody(leadgateUrl: string, nginxUrl: string, variant: Variant): Promise<void> {
  const get = async (url: string) => {
    const response = await fetch(url, {
      headers: { accept: ACCEPT[variant], 'accept-encoding': 'identity' },
    });
    const body = (await response.text()).replaceAll(FORM_TOKEN, FORM_TOKEN_FIELD);
    return { type: response.headers.get('content-type'), body };
  };
  const [ours, theirs] = await Promise.all([get(leadgateUrl), get(nginxUrl)]);
  if (ours.body !== theirs.body || ours.type !== theirs.type) {
    throw new Error(`${variant}: leadgate and nginx differ (${ours.type} vs ${theirs.type})`);
  }
}

/**
 * Benchmark 2: GET PAGE, HTML then Markdown by content negotiation, from `leadgate serve` (dist/ in
 * memory) and from nginx serving the same dist/. No Accept-Encoding: identical bytes on both sides.
 */
export async function siteRound(
  root: string,
  distDir: string,
  seconds: number,
): Promise<SiteRound> {
  const dataDir = mkdtempSync(join(root, 'site-'));
  const [port, nginxPort, floorPort] = [await freePort(), await freePort(), await freePort()];
  const leadgateUrl = `http://127.0.0.1:${port}${PAGE}`;
  const nginxUrl = `http://127.0.0.1:${nginxPort}${PAGE}`;
  const env = {
    ...SITE_ENV,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
  };
  const leadgate = await startServerProcess(process.execPath, SERVE_ARGS, env, leadgateUrl);
  const nginx = await startNginx(root, distDir, nginxPort).catch(async (error: unknown) => {
    await leadgate.stop();
    throw error;
  });
  const floorUrl = `http://127.0.0.1:${floorPort}${PAGE}`;
  const nodeFloor = await startServerProcess(
    process.execPath,
    ['--import', 'tsx', 'bench/node-floor-server.ts'],
    { PORT: String(floorPort), LEADGATE_PAGE_URL: leadgateUrl },
    floorUrl,
  ).catch(async (error: unknown) => {
    await Promise.all([leadgate.stop(), nginx.stop()]);
    throw error;
  });
  try {
    const round = {} as SiteRound;
    for (const variant of ['html', 'markdown'] as const) {
      await sameBody(leadgateUrl, nginxUrl, variant);
      round[variant] = {
        leadgate: await measure(leadgate, leadgateUrl, variant, seconds),
        nginx: await measure(nginx, nginxUrl, variant, seconds),
        nodeFloor: await measure(nodeFloor, floorUrl, variant, seconds),
      };
    }
    return round;
  } finally {
    await Promise.all([leadgate.stop(), nginx.stop(), nodeFloor.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
