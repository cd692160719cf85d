import { describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validContact } from '../../helpers/app.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { acceptLead } from '../../helpers/test-stores.ts';
import { activeMember, FAST_SCRYPT, signIn } from '../staff/staff-session.ts';

/*
 * docs/performance.md, « Exports »: an export is written as it is read from the keyset-paged
 * cursor, giving the event loop back between chunks, so leads POSTed meanwhile are answered while it
 * runs, and it is complete. No timing is asserted: the order of events is (this file runs on both
 * journals; the 100,000-lead figures are bench/ work).
 */
const LEADS = 3000;
const POSTS = 20;

describe('an export streamed while leads arrive (docs/performance.md, « Exports »)', () => {
  const t = useTestApp({ passwordCost: FAST_SCRYPT });

  it('every lead exported, each POST answered while the export was under way', async () => {
    const start = Date.UTC(2026, 10, 2, 8);
    const ids = Array.from(
      { length: LEADS },
      (_, index) => `stream-${String(index).padStart(5, '0')}`,
    );
    // Journaled 100 at a time, as concurrent requests would be: one at a time, 3,000 round trips
    // to PostgreSQL outlasted the test's two minutes on a loaded machine.
    for (let batch = 0; batch < LEADS; batch += 100) {
      await Promise.all(
        ids.slice(batch, batch + 100).map((id, offset) => {
          const index = batch + offset;
          const lead = {
            kind: 'contact',
            id,
            receivedAt: new Date(start + index * 1000),
            data: { ...validContact, EMAIL: `p${index}@example.fr` },
          } as Lead;
          return acceptLead(t.store, lead);
        }),
      );
    }
    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    const { cookie } = await signIn(t.app, 'anne@agence.fr');

    // Over a real socket, read as a browser would: the first chunk, then nothing while leads are
    // POSTed. The file (megabytes) outgrows the socket's buffers, so the export is under way,
    // paused by its reader, while the POSTs must be answered.
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${origin}/equipe/export.csv?format=excel`, {
      headers: { cookie },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);
    const statuses: number[] = [];
    for (let index = 0; index < POSTS; index += 1) {
      const answer = await postJson(t.app, '/api/contact', {
        ...validContact,
        EMAIL: `pendant-${index}@example.fr`,
      });
      statuses.push(answer.statusCode);
    }
    let more = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      more += 1;
    }
    const body = Buffer.concat(chunks).toString('utf8');

    expect(statuses).toEqual(Array(POSTS).fill(200));
    // The export was still under way when the POSTs were answered: more of it came after.
    expect(more).toBeGreaterThan(0);
    const [header, ...rows] = parseCsv(body.slice(1), ';');
    const reference = header!.indexOf('Référence');
    const inFile = new Set(rows.map((row) => row[reference]));
    expect(ids.filter((id) => !inFile.has(id))).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(LEADS);
    expect(rows.length).toBeLessThanOrEqual(LEADS + POSTS);
  }, 120_000);
});
