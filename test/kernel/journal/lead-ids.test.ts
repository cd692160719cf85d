import { afterEach, describe, expect, it } from 'vitest';
import { newLeadId } from '../../../src/kernel/lead/lead.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * docs/performance.md, "The accept path": a lead's id begins with the time it arrived, so the
 * journal's indexes on lead ids grow at their end instead of touching a random page per lead.
 */
describe('lead ids', () => {
  let testApp: TestApp | undefined;
  afterEach(() => testApp?.close());

  it('are UUIDs (version 7) that sort in the order the leads arrived', async () => {
    testApp = await buildTestApp();
    for (let index = 0; index < 5; index++) {
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...validContact, EMAIL: `ordre.${index}@example.fr` },
      });
      expect(answer.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const entries = await testApp.store.list();
    const ids = entries.map((entry) => entry.lead.id);
    expect(ids).toHaveLength(5);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    const byArrival = [...entries]
      .sort((a, b) => a.lead.receivedAt.getTime() - b.lead.receivedAt.getTime())
      .map((entry) => entry.lead.id);
    expect([...ids].sort()).toEqual(byArrival);
  });
});

describe('newLeadId', () => {
  it('puts the time first, in milliseconds, and keeps 74 random bits', () => {
    const at = Date.parse('2026-11-25T12:00:00.123Z');
    const id = newLeadId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(newLeadId(at)).not.toBe(id);
  });
});
