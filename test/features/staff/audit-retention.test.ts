import { afterEach, describe, expect, it } from 'vitest';
import { startRetention } from '../../../src/features/privacy/retention.ts';
import { auditEntry } from '../../../src/features/staff/staff-actions.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import { sharedDatabase, type SharedDatabase } from '../../helpers/test-stores.ts';

const DAY = 24 * 60 * 60 * 1000;
let database: SharedDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

/**
 * docs/workspace-security.md, "Audit trail": the daily retention run deletes trail lines older than
 * STAFF_AUDIT_RETENTION_DAYS and the sessions and invitations that ended before that date; two
 * nodes read the same trail.
 */
describe(`audit trail retention (${defaultTestDialect})`, () => {
  it('deletes what is older than the retention, keeps the rest, on every node', async () => {
    database = await sharedDatabase(defaultTestDialect);
    const [node1, node2] = [await database.open(), await database.open()];
    const now = new Date('2026-11-26T08:00:00Z');
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    const staff = await node1.staff.addAccount({
      id: 's1',
      email: 'a@agence.fr',
      name: 'A',
      role: 'admin',
      now: at(500),
    });
    await node1.staff.record(auditEntry(staff, 'sign-in', at(400), 'staff:s1'));
    await node1.staff.record(auditEntry(staff, 'view-person', at(10), 'person:abc'));
    await node1.staff.addSession({
      tokenHash: 'old',
      staffId: 's1',
      createdAt: at(400),
      lastSeenAt: at(400),
      expiresAt: at(399),
    });
    await node1.staff.addSession({
      tokenHash: 'live',
      staffId: 's1',
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + DAY),
    });
    await node1.staff.addInvitation({
      tokenHash: 'inv',
      staffId: 's1',
      createdBy: null,
      now: at(400),
      expiresAt: at(398),
    });
    const retention = startRetention({
      store: node2,
      days: 1095,
      auditDays: 365,
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
    });
    await retention.runOnce();
    retention.stop();
    const trail = await node1.staff.auditTrail({ limit: 10 });
    expect(trail.map((entry) => entry.action)).toEqual(['view-person']);
    expect(await node1.staff.session('old')).toBeUndefined();
    expect(await node1.staff.session('live')).toBeDefined();
    expect(await node1.staff.invitation('inv', at(399))).toBeUndefined();
  });
});
