import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { postJson, startNode, type LeadgateNode } from '../scale/leadgate-node.ts';

/**
 * docs/operations.md: `leadgate backup` copies the SQLite journal through SQLite's online backup API
 * while a real server process keeps journaling leads; restoring the copy gives back every lead.
 */
describe('leadgate backup under load (docs/operations.md)', () => {
  const LEADS = 300;
  let node: LeadgateNode;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'leadgate-backup-'));
    node = await startNode({ RATE_LIMIT_PER_MINUTE: '0' });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const emailOf = (i: number) => `backup-${i}@example.fr`;

  /**
   * Sends every lead, ten at a time, slower while `slowDown()` says so (so that the load outlasts
   * a backup); resolves with the addresses and times in the order they were acknowledged.
   */
  async function load(
    onAcknowledged: (count: number) => void,
    slowDown: () => boolean,
  ): Promise<{ email: string; at: number }[]> {
    const acknowledged: { email: string; at: number }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < LEADS) {
        const email = emailOf(next++);
        const answer = await postJson(node, '/api/subscribe', { email, firstName: 'Léa' });
        expect(answer.status).toBe(200);
        acknowledged.push({ email, at: Date.now() });
        onAcknowledged(acknowledged.length);
        if (slowDown()) await new Promise((done) => setTimeout(done, 400));
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    return acknowledged;
  }

  const journaledEmails = (file: string) => {
    const db = new SQLite(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      return new Set(db.prepare('select email from leads').pluck().all() as string[]);
    } finally {
      db.close();
    }
  };

  it('a backup taken mid-load is whole; one taken after restores all 300 leads', async () => {
    const midFile = join(scratch, 'mid.sqlite');
    let midBackup: Promise<Awaited<ReturnType<typeof runLeadgate>>> | undefined;
    let backupStarted = Infinity;
    let backupEnded = Infinity;
    const leads = await load(
      (count) => {
        if (count !== 100) return;
        backupStarted = Date.now();
        midBackup = runLeadgate(['backup', midFile], { DATA_DIR: node.dataDir });
        void midBackup.then(() => (backupEnded = Date.now()));
      },
      () => backupStarted < Infinity && backupEnded === Infinity,
    );
    const acknowledged = leads.map((lead) => lead.email);
    const mid = await midBackup!;
    expect(mid.code, mid.stderr).toBe(0);
    // The server kept taking leads while the backup ran.
    const during = leads.filter((lead) => lead.at > backupStarted && lead.at < backupEnded);
    expect(during.length).toBeGreaterThan(0);
    // Every lead acknowledged before the backup started is in it (the answer leaves after the write).
    const inMid = journaledEmails(midFile);
    for (const email of acknowledged.slice(0, 100)) expect(inMid.has(email), email).toBe(true);
    expect(inMid.size).toBeLessThanOrEqual(LEADS);

    const finalFile = join(scratch, 'final.sqlite');
    const final = await runLeadgate(['backup', finalFile], { DATA_DIR: node.dataDir });
    expect(final.code, final.stderr).toBe(0);

    // Restore as docs/operations.md says: the copy becomes leadgate.sqlite of a new DATA_DIR.
    const restored = join(scratch, 'restored');
    mkdirSync(restored);
    copyFileSync(finalFile, join(restored, 'leadgate.sqlite'));
    const exported = await runLeadgate(['leads', 'export', '--format', 'json'], {
      DATA_DIR: restored,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const emails = (JSON.parse(exported.stdout) as { email: string }[]).map((row) => row.email);
    expect(emails.sort()).toEqual([...acknowledged].sort());
    expect(emails).toHaveLength(LEADS);
  }, 120_000);

  it('with PostgreSQL it names pg_dump and exits 1', async () => {
    const run = await runLeadgate(['backup', join(scratch, 'x.sqlite')], {
      DATA_DIR: node.dataDir,
      DATABASE_URL: 'postgres://leadgate@127.0.0.1:1/leadgate',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pg_dump');
  }, 60_000);
});
