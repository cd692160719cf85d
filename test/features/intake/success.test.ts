import { describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact, validSubscribe } from '../../helpers/app.ts';

// MAIL_PROVIDER=outbox: known addresses come from the store (spec 2.4)
const t = useTestApp();

describe('spec 2.4 and 4: success bodies', () => {
  it('contact success is exactly {"success":true}, even sent twice', async () => {
    for (let i = 0; i < 2; i += 1) {
      const response = await postJson(t.app, '/api/contact', validContact);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe('{"success":true}');
    }
  });

  it('subscribe: a first address is existing: false, the same again existing: true (spec 4.2)', async () => {
    const first = await postJson(t.app, '/api/subscribe', validSubscribe);
    expect(first.json()).toMatchObject({ success: true, existing: false });
    const second = await postJson(t.app, '/api/subscribe', validSubscribe);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ success: true, existing: true });
  });

  it('subscribe: the address is known whatever its case', async () => {
    const email = 'Casse.Mixte@Example.FR';
    await postJson(t.app, '/api/subscribe', { ...validSubscribe, email });
    const again = await postJson(t.app, '/api/subscribe', {
      ...validSubscribe,
      email: email.toLowerCase(),
    });
    expect(again.json()).toMatchObject({ success: true, existing: true });
  });

  it('audit: first existing: false, then existing: true (spec 4, "may be set")', async () => {
    const body = { ...validAudit, email: 'audit-twice@example.fr' };
    expect((await postJson(t.app, '/api/audit', body)).json()).toEqual({
      success: true,
      existing: false,
    });
    expect((await postJson(t.app, '/api/audit', body)).json()).toEqual({
      success: true,
      existing: true,
    });
  });

  it('an address known to the newsletter is new to the audits: each list is its own (docs/api-decisions.md)', async () => {
    const email = 'two-lists@example.fr';
    await postJson(t.app, '/api/subscribe', { ...validSubscribe, email });
    const audit = await postJson(t.app, '/api/audit', { ...validAudit, email });
    expect(audit.json()).toMatchObject({ success: true, existing: false });
  });
});
