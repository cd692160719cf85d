import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import {
  postgresBinDir,
  startPostgresCluster,
  type PostgresCluster,
} from '../helpers/postgres-cluster.ts';
import { postJson, runLeadgate, startNode, type LeadgateNode } from './leadgate-node.ts';

/**
 * docs/deployment.md: the database stopped mid-run. A node answers 500 server_error (never a success for a lead
 * it could not store), says it is not ready, stays up, and serves again once the database is back.
 * The database is a cluster of this file's own: the run's shared one is never stopped.
 */
describe.skipIf(!postgresBinDir())('PostgreSQL stopped mid-run (docs/deployment.md)', () => {
  let cluster: PostgresCluster;
  let node: LeadgateNode;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    node = await startNode({ DATABASE_URL: cluster.url(), DATABASE_CONNECT_TIMEOUT_MS: '2000' });
  });

  afterAll(async () => {
    await node?.stop();
    await cluster?.destroy();
  });

  const subscribe = (email: string) =>
    postJson(node, '/api/subscribe', { email, firstName: 'Léa' });
  const ready = async () => (await fetch(`${node.url}/readyz`)).status;

  it('answers 500 server_error while the database is down, stays up, and recovers when it returns', async () => {
    expect((await subscribe('avant@example.fr')).status).toBe(200);
    expect(await ready()).toBe(200);

    await cluster.stop();
    const started = Date.now();
    const during = await subscribe('pendant@example.fr');
    expect(during.status).toBe(500);
    expect(during.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await during.json()).toMatchObject({ success: false, error: { code: 'server_error' } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await ready()).toBe(503);
    const live = await fetch(`${node.url}/healthz`);
    expect(live.status).toBe(200);
    expect(node.process.exitCode).toBeNull();

    await cluster.start();
    await expect
      .poll(async () => (await subscribe('apres@example.fr')).status, { interval: 250 })
      .toBe(200);
    expect(await ready()).toBe(200);
    expect(node.process.exitCode).toBeNull();

    // What callers were told matches the journal: the refused lead is not in it, the others are.
    const store = await createStore(loadConfig({ DATABASE_URL: cluster.url() }));
    try {
      const addresses = (await store.list())
        .map((entry) => entry.lead.data)
        .map((data) => ('email' in data ? data.email : ''));
      expect(addresses).toContain('avant@example.fr');
      expect(addresses).toContain('apres@example.fr');
      expect(addresses).not.toContain('pendant@example.fr');
    } finally {
      await store.close();
    }
  });

  it('at start, an unreachable database is one clear line and exit code 1', async () => {
    await cluster.stop();
    try {
      const { code, errors } = await runLeadgate(['serve'], {
        DATABASE_URL: cluster.url(),
        // The node's port and dist: the site is already built for it, the start goes straight to the database.
        PORT: new URL(node.url).port,
        DIST_DIR: join(node.dataDir, 'dist'),
      });
      expect(code).toBe(1);
      const lines = errors.trim().split('\n');
      expect(lines, errors).toHaveLength(1);
      expect(lines[0]).toMatch(/^PostgreSQL injoignable \(postgres:\/\/.*\) : .*ECONNREFUSED/);
    } finally {
      await cluster.start();
    }
  });
});
