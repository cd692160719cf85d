import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validContact } from '../helpers/app.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { healthyOrExited, type Launched } from './launch.ts';
import {
  directivesOf,
  leadgateRun,
  ROOT,
  scratchHost,
  startUnit,
  type Host,
} from './systemd-emulation.ts';

/*
 * docs/deployment.md, « A second site »: two instances of deploy/leadgate@.service on one machine,
 * each with its own env file (/etc/leadgate/<site>.env), identity (AGENCY_FILE), pages
 * (CONTENT_DIR) and journal (/var/lib/leadgate/<site>), started as systemd starts them, in
 * production. Each answers with its own pages and e-mails; `leadgate-run --instance <site>` runs a
 * command with that instance's environment, on its journal, which its first line names.
 */
const template = readFileSync(join(ROOT, 'deploy/leadgate@.service'), 'utf8');

interface Site {
  instance: string;
  name: string;
  prospect: string;
  port: number;
  launched?: Launched;
}

const SITES: Site[] = [
  {
    instance: 'atelier-dupont',
    name: 'Atelier Dupont',
    prospect: 'marie@dupont-client.fr',
    port: 0,
  },
  { instance: 'maison-boreal', name: 'Maison Boréal', prospect: 'paul@boreal-client.fr', port: 0 },
];

let scratch: string;
let host: Host;
let sink: SmtpSink;

/** The site's own identity: the sample's values kept as its own, under its name. */
function identityOf(site: Site): string {
  const dir = join(scratch, `identity-${site.instance}`);
  mkdirSync(dir, { mode: 0o755 });
  cpSync(join(ROOT, 'site/images'), join(dir, 'images'), { recursive: true });
  const text = readFileSync(join(ROOT, 'site/agency.yaml'), 'utf8')
    .replace('name: !exemple Repère', `name: ${site.name}`)
    .replace('senderName: !exemple Repère, agence web', `senderName: ${site.name}`)
    .replaceAll('!exemple ', '');
  writeFileSync(join(dir, 'agency.yaml'), text);
  return join(dir, 'agency.yaml');
}

/** The site's own pages: the shipped ones without the sample case studies, its own prices page. */
function contentOf(site: Site): string {
  const content = join(scratch, `content-${site.instance}`);
  cpSync(join(ROOT, 'site/content'), content, { recursive: true });
  chmodSync(content, 0o755);
  for (const sample of [
    'atelier-velo-croix-rousse',
    'cabinet-ferrand-avocats',
    'durand-renovation',
  ]) {
    rmSync(join(content, 'realisations', `${sample}.md`));
  }
  const tarifs = join(content, 'tarifs.md');
  writeFileSync(
    tarifs,
    readFileSync(tarifs, 'utf8').replace(
      /\n---\n[\s\S]*$/,
      `\n---\n\nLes tarifs de ${site.name}.\n`,
    ),
  );
  return content;
}

/** /etc/leadgate/<site>.env: the shipped example filled in, as docs/deployment.md says. */
async function envFileOf(site: Site): Promise<void> {
  site.port = await freePort();
  const address = `bonjour@${site.instance}.fr`;
  const lines = [
    readFileSync(join(ROOT, 'deploy/leadgate.env.example'), 'utf8'),
    `MAIL_FROM='${site.name} <${address}>'`,
    `AGENCY_EMAIL='equipe@${site.instance}.fr'`,
    'MAIL_PROVIDER=smtp',
    `SMTP_URL='${sink.url}'`,
    `SITE_URL='https://${site.instance}.fr'`,
    `AGENCY_FILE='${identityOf(site)}'`,
    `CONTENT_DIR='${contentOf(site)}'`,
    'HOST=127.0.0.1',
    `PORT=${site.port}`,
    'LOG_LEVEL=warn',
  ];
  writeFileSync(join(host.etc, `${site.instance}.env`), `${lines.join('\n')}\n`);
}

const url = (site: Site, path: string) => `http://127.0.0.1:${site.port}${path}`;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-second-site-'));
  chmodSync(scratch, 0o755);
  host = scratchHost(scratch);
  sink = await startSmtpSink();
  for (const site of SITES) await envFileOf(site);
  for (const site of SITES) site.launched = startUnit(template, host, site.instance);
  for (const site of SITES) {
    expect(await healthyOrExited(site.launched!, url(site, '')), site.launched!.stderr()).toBe(
      'healthy',
    );
  }
}, 240_000);
afterAll(async () => {
  for (const site of SITES) {
    site.launched?.process.kill('SIGTERM');
    await site.launched?.exited;
  }
  await sink?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('two sites on one machine, one leadgate@.service instance each (docs/deployment.md, « A second site »)', () => {
  it('each answers with its own identity and pages', async () => {
    for (const [site, other] of [SITES, [...SITES].reverse()] as [Site, Site][]) {
      const home = await (await fetch(url(site, '/'))).text();
      expect(home).toContain(`<title>${site.name}`);
      expect(home).not.toContain(other.name);
      expect(await (await fetch(url(site, '/tarifs'))).text()).toContain(
        `Les tarifs de ${site.name}.`,
      );
      expect((await fetch(url(site, '/realisations/cabinet-ferrand-avocats'))).status).toBe(404);
    }
  });

  it('each sends its own e-mails: its sender, its name, its address', async () => {
    for (const site of SITES) {
      const answer = await fetch(url(site, '/api/contact'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...validContact, EMAIL: site.prospect }),
      });
      expect(answer.status, await answer.text()).toBe(200);
    }
    for (const site of SITES) {
      const confirmation = () =>
        sink.received.find((mail) => mail.envelopeTo.includes(site.prospect));
      await expect.poll(confirmation).toBeDefined();
      expect(confirmation()!.email.from).toEqual({
        name: site.name,
        address: `bonjour@${site.instance}.fr`,
      });
      expect(confirmation()!.email.text).toContain(site.name);
    }
  });

  it('`leadgate-run --instance <site>` runs a command on that instance’s journal, named on its first line', async () => {
    for (const [site, other] of [SITES, [...SITES].reverse()] as [Site, Site][]) {
      const run = leadgateRun(['--instance', site.instance, 'leads', 'list'], host, scratch);
      // The instance's own unit settings, the paths of its ExecStart.
      for (const name of ['StateDirectory', 'EnvironmentFile', 'WorkingDirectory', 'UMask']) {
        expect([name, run.properties[name]]).toEqual([
          name,
          directivesOf(template, name, site.instance)[0],
        ]);
      }
      const paths = run.command.slice(0, run.command.indexOf('/usr/bin/node')).join(' ');
      expect(directivesOf(template, 'ExecStart', site.instance)[0]).toMatch(
        new RegExp(`^${paths.replaceAll('/', '\\/')} /usr/bin/node `),
      );
      const listed = run.launched;
      expect(await listed.exited, listed.stderr()).toEqual({ code: 0, signal: null });
      expect(listed.stderr().split('\n')[0]).toBe(
        `journal : SQLite ${join(host.varLib, 'leadgate', site.instance, 'leadgate.sqlite')}`,
      );
      expect(listed.stdout()).toContain(site.prospect);
      expect(listed.stdout()).not.toContain(other.prospect);
    }
  });

  it('`leadgate-run --instance` with a name that is no instance’s: one line, exit 2, nothing run', () => {
    const refused = spawnSync(
      '/bin/sh',
      [join(ROOT, 'deploy/leadgate-run'), '--instance', '../etc', 'leads', 'list'],
      {
        env: { PATH: '/nonexistent' },
        encoding: 'utf8',
      },
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^leadgate-run : --instance attend le nom d’une instance de leadgate@\.service .* reçu « \.\.\/etc »\n$/,
    );
  });
});
