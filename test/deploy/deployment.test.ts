import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVE_ARGS } from '../../bench/lib/serve-command.ts';
import { EnvSchema } from '../../src/kernel/config/env-schema.ts';
import { hasTool } from '../helpers/tools.ts';

/** docs/deployment.md: the Dockerfile, the systemd unit and the compose file, checked by real tools. */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe.skipIf(!hasTool('systemd-analyze'))('deploy/leadgate.service (systemd)', () => {
  it('passes systemd-analyze verify without a warning, paths pointed at this checkout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadgate-unit-'));
    try {
      const unit = read('deploy/leadgate.service')
        .replaceAll('/usr/bin/node', process.execPath)
        .replaceAll('/opt/leadgate', ROOT)
        .replace('/etc/leadgate/leadgate.env', join(ROOT, 'deploy/leadgate.env.example'));
      writeFileSync(join(dir, 'leadgate.service'), unit);
      const run = spawnSync('systemd-analyze', ['verify', join(dir, 'leadgate.service')], {
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is hardened, keeps its state in StateDirectory, and does not restart on a configuration error', () => {
    const unit = read('deploy/leadgate.service');
    for (const line of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'CapabilityBoundingSet=',
      'DynamicUser=yes',
      'StateDirectory=leadgate',
      'RestartPreventExitStatus=2',
      'EnvironmentFile=/etc/leadgate/leadgate.env',
    ])
      expect(unit.split('\n')).toContain(line);
  });
});

/** js-yaml 3 comes with gray-matter (a dependency): load it only if it is there. */
function yamlParser(): ((text: string) => unknown) | undefined {
  try {
    const yaml = createRequire(import.meta.url)('js-yaml') as { safeLoad(text: string): unknown };
    return (text) => yaml.safeLoad(text);
  } catch {
    if (process.env.CI === 'true') throw new Error('js-yaml is required under CI=true');
    console.warn('SKIP: js-yaml is not installed; deploy/compose.yaml is not parsed');
    return undefined;
  }
}

const parseYaml = yamlParser();

describe.skipIf(!parseYaml)('deploy/compose.yaml (N nodes on PostgreSQL)', () => {
  interface Service {
    image?: string;
    build?: unknown;
    command?: string[];
    environment?: Record<string, string>;
    depends_on?: Record<string, { condition: string }>;
    deploy?: { replicas: unknown };
    healthcheck?: unknown;
  }

  it('parses: PostgreSQL with a health check, a one-shot check and migration, then N leadgate nodes on it', () => {
    const compose = parseYaml!(read('deploy/compose.yaml')) as {
      services: Record<string, Service>;
    };
    const { postgres, check, leadgate } = compose.services;
    expect(postgres?.image).toMatch(/^postgres:/);
    expect(postgres?.healthcheck).toBeDefined();
    expect(check?.command).toEqual(['node', 'bin/leadgate.js', 'check']);
    expect(check?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(leadgate?.depends_on?.check?.condition).toBe('service_completed_successfully');
    expect(leadgate?.deploy?.replicas).toBe('${LEADGATE_NODES:-2}');
    expect(leadgate?.environment?.DATABASE_URL).toMatch(
      /^postgres:\/\/leadgate:.*@postgres:5432\/leadgate$/,
    );
    // Every variable handed to the nodes is one the configuration schema knows.
    for (const name of Object.keys(leadgate?.environment ?? {}))
      expect(Object.keys(EnvSchema.properties)).toContain(name);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('is multi-stage, runs as a non-root user, keeps data in a volume, checks /healthz', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/var\/lib\/leadgate"\]$/m);
    expect(dockerfile).toMatch(/^ {2}CMD .*\/healthz/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });

  const daemon = dockerAnswers();
  it.skipIf(!daemon)(
    'builds with the Docker daemon',
    () => {
      execFileSync('docker', ['build', '--tag', 'leadgate:test', ROOT], {
        stdio: 'inherit',
        timeout: 15 * 60_000,
      });
    },
    15 * 60_000,
  );
});

/**
 * Building needs a Docker daemon, which this machine may not run: skipped with a SKIP line, also
 * under CI=true when there is no Docker at all; a Docker that is there must build the image.
 */
function dockerAnswers(): boolean {
  const info = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 });
  if (info.status === 0) return true;
  console.warn('SKIP: no Docker daemon answers here; the image is not built');
  return false;
}

/**
 * docs/performance.md ("Memory"): `serve` runs with V8 flags that keep its heap small. They can only
 * be given on node's command line, so each launcher repeats those of `npm start`.
 */
describe('the node flags of serve', () => {
  // npm start's arguments, as every benchmark reads them (it checks they end in bin/leadgate.js serve).
  const flags = SERVE_ARGS.slice(0, SERVE_ARGS.indexOf('bin/leadgate.js'));

  it('are the same in npm start, the Dockerfile and the systemd unit', () => {
    expect(flags.length).toBeGreaterThan(0);
    expect(read('Dockerfile')).toContain(
      `CMD ${JSON.stringify(['node', ...flags, 'bin/leadgate.js', 'serve']).replaceAll(',', ', ')}`,
    );
    expect(read('deploy/leadgate.service').split('\n')).toContain(
      `ExecStart=/usr/bin/env DATA_DIR=/var/lib/leadgate DIST_DIR=/var/lib/leadgate/dist NODE_ENV=production /usr/bin/node ${flags.join(' ')} /opt/leadgate/bin/leadgate.js serve`,
    );
  });

  it('are accepted by this node and bound the young generation', () => {
    const newSpace = execFileSync(
      process.execPath,
      [
        ...flags,
        '-e',
        `let garbage = []; for (let i = 0; i < 2e6; i++) { garbage.push({ i }); if (garbage.length > 1e4) garbage = []; }
         console.log(require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space').space_size)`,
      ],
      { encoding: 'utf8' },
    );
    // Two semi-spaces of at most 4 MB each (V8's default lets them grow to 16 MB each).
    expect(Number(newSpace)).toBeLessThanOrEqual(8 * 2 ** 20);
    expect(Number(newSpace)).toBeGreaterThan(0);
  });
});
