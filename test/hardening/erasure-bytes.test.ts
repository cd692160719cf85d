import { readFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { sqliteFile } from '../../src/wiring/create-store.ts';

/*
 * docs/consent.md, "Erasure": after `people forget` (and after a retention run) the person's address
 * and phone are in neither the SQLite file nor its WAL, while the server still has them open.
 */
const ADDRESS = 'erase.me.please@example.fr';
const PHONE = '698765432';
const OTHER = 'keep.me@example.fr';

function occurrences(t: TestApp, text: string): number {
  const file = sqliteFile(t.dataDir);
  let count = 0;
  for (const path of [file, `${file}-wal`]) {
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) count++;
  }
  return count;
}

async function journal(t: TestApp, email: string, count: number, phone = PHONE) {
  for (let i = 0; i < count; i++) {
    const lead = { ...validContact, EMAIL: email, SMS: phone, DEMANDE: `Demande ${i} de ${email}` };
    expect((await postJson(t.app, '/api/contact', lead)).statusCode).toBe(200);
  }
}

describe('erasure that erases (SQLite)', { timeout: 120_000 }, () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('people forget: the address and phone are in neither leadgate.sqlite nor its -wal', async () => {
    t = await buildTestApp({ dialect: 'sqlite' });
    await journal(t, ADDRESS, 4);
    await journal(t, OTHER, 1, '611223344');
    expect(occurrences(t, ADDRESS)).toBeGreaterThan(0);
    const run = await runLeadgate(['people', 'forget', ADDRESS], { DATA_DIR: t.dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(occurrences(t, ADDRESS)).toBe(0);
    expect(occurrences(t, PHONE)).toBe(0);
    // The other person is still there, and so the file is the live one.
    expect((await t.store.list()).map((entry) => entry.lead.data)).toEqual([
      expect.objectContaining({ EMAIL: OTHER }),
    ]);
  });

  it('a retention run: the expired address leaves the files too', async () => {
    t = await buildTestApp({ dialect: 'sqlite' });
    await journal(t, ADDRESS, 3);
    expect(occurrences(t, ADDRESS)).toBeGreaterThan(0);
    await t.store.people.expire(new Date(Date.now() + 60_000));
    expect(occurrences(t, ADDRESS)).toBe(0);
    expect(occurrences(t, PHONE)).toBe(0);
  });
});
