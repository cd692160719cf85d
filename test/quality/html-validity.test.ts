import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';
import { hasTool } from '../helpers/tools.ts';

/**
 * The jar ships inside the npm package; Java comes from Debian (default-jre-headless), never from the
 * package's postinstall download.
 */
const VNU_JAR = join(
  createRequire(import.meta.url).resolve('vnu-jar/package.json'),
  '../build/dist/vnu.jar',
);

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/**
 * The WebMCP draft's form attributes (docs/agents.md) are not in HTML yet: the checker's one
 * complaint allowed, for these three names only.
 */
function isWebMcpAttribute(message: VnuMessage): boolean {
  return /^Attribute “(toolname|tooldescription|toolparamdescription)” not allowed/.test(
    message.message,
  );
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => join(dir, file))
    .sort();
}

/**
 * The pages the server writes from the built ones when a browser's form post is refused
 * (docs/api-decisions.md, "Form errors"): invalid (400), too large (413), rate-limited (429).
 */
async function writeRefusalPages(siteDir: string): Promise<string[]> {
  const test = await buildTestApp({
    siteDir,
    env: { RATE_LIMIT_PER_MINUTE: '1', BODY_LIMIT_BYTES: '4096' },
  });
  const post = (url: string, fields: Record<string, string>) =>
    test.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams(fields).toString(),
    });
  try {
    const answers = {
      400: await post('/api/contact', { PRENOM: 'Léa', EMAIL: 'lea@exemple' }),
      413: await post('/api/audit', { sector: 'btp', PRENOM: 'x'.repeat(5000) }),
      429: (await post('/api/subscribe', {}), await post('/api/subscribe', {})),
    };
    return Object.entries(answers).map(([status, answer]) => {
      expect(answer.statusCode).toBe(Number(status));
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      const file = join(siteDir, `refused-${status}.html`);
      writeFileSync(file, answer.body);
      return file;
    });
  } finally {
    await test.close();
  }
}

describe.skipIf(!hasTool('java', ['-version']))(
  'Nu HTML Checker on every built page (quality bar, docs/quality.md)',
  () => {
    let site: TestSite;
    beforeAll(async () => {
      site = await buildTestSite();
    });
    afterAll(() => site?.remove());

    it('reports 0 errors (one JVM run over all pages, and the pages of a refused form post)', async () => {
      const refused = await writeRefusalPages(site.dir);
      const files = htmlFiles(site.dir);
      expect(files).toEqual(expect.arrayContaining(refused));
      expect(files.length).toBeGreaterThanOrEqual(15);
      // --exit-zero-always: the JSON report, not the exit code, says what is wrong, and where.
      const { stderr } = await promisify(execFile)(
        'java',
        ['-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files],
        { maxBuffer: 16 * 1024 * 1024, timeout: 90_000 },
      );
      const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
      const errors = messages
        .filter((message) => message.type !== 'info' && !isWebMcpAttribute(message))
        .map(
          (message) =>
            `${message.url.replace(`file:${site.dir}`, '')}:${message.lastLine ?? '?'} ${message.message}`,
        );
      expect(errors).toEqual([]);
      // A checker that read nothing would also report nothing: it must have seen the files.
      expect(
        files.every(
          (file) =>
            !messages.some(
              (message) => message.type === 'non-document-error' && message.url.endsWith(file),
            ),
        ),
      ).toBe(true);
    }, 120_000);
  },
);
