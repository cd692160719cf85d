import { describe, expect, it } from 'vitest';
import { base32Encode, totpCode, totpStep, verifyTotp } from '../../../src/features/staff/totp.ts';
import { html, raw } from '../../../src/features/staff/html.ts';
import { useTestApp } from '../../helpers/app.ts';
import {
  activeMember,
  FAST_SCRYPT,
  csrfOf,
  PASSWORD,
  postForm,
  sessionCookieOf,
  signIn,
} from './staff-session.ts';

const clock = { now: new Date('2026-11-26T09:00:00Z') };
const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 key "12345678901234567890", last 6 of the 8 digits.
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  it('gives the RFC’s test values', () => {
    expect(totpCode(secret, totpStep(new Date(59_000)))).toBe('287082');
    expect(totpCode(secret, totpStep(new Date(1_111_111_109_000)))).toBe('081804');
    expect(totpCode(secret, totpStep(new Date(20_000_000_000_000)))).toBe('353130');
  });

  it('accepts one step of drift either way, never a step already used', () => {
    const now = new Date(1_111_111_109_000);
    const step = totpStep(now);
    expect(verifyTotp(secret, totpCode(secret, step - 1), now, null)).toBe(step - 1);
    expect(verifyTotp(secret, totpCode(secret, step + 1), now, null)).toBe(step + 1);
    expect(verifyTotp(secret, totpCode(secret, step - 2), now, null)).toBeUndefined();
    expect(verifyTotp(secret, totpCode(secret, step), now, step)).toBeUndefined();
  });
});

describe('the html template escapes by default (../shared/STYLE.md)', () => {
  it('escapes every value, joins lists, keeps raw() and nested templates', () => {
    const name = '<script>alert("x")</script>';
    expect(html`<p title="${name}">${[name, html`<b>${'&'}</b>`]}${raw('<hr>')}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<b>&amp;</b><hr></p>',
    );
  });
});

describe('the second factor in the workspace (docs/workspace-security.md, "Second factor")', () => {
  const testApp = useTestApp({ now: () => clock.now, passwordCost: FAST_SCRYPT });

  it('once set up, signing in needs a code; a code is not accepted twice; a recovery code works once', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'totp@agence.fr', 'member', clock.now);
    const session = await signIn(app, 'totp@agence.fr');
    const account = await app.inject({
      url: '/equipe/compte',
      headers: { cookie: session.cookie },
    });
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(account.body)![1]!;
    const wrong = await postForm(
      app,
      '/equipe/compte/double-authentification',
      {
        _csrf: session.csrf,
        secret,
        code: '000000' === totpCode(secret, totpStep(clock.now)) ? '111111' : '000000',
      },
      session.cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('aria-invalid="true"');
    const enabled = await postForm(
      app,
      '/equipe/compte/double-authentification',
      { _csrf: session.csrf, secret, code: totpCode(secret, totpStep(clock.now)) },
      session.cookie,
    );
    expect(enabled.statusCode).toBe(200);
    const codes = [...enabled.body.matchAll(/<li>([a-z0-9]{10})<\/li>/g)].map((match) => match[1]!);
    expect(codes).toHaveLength(10);

    // Password alone, or with the code just used: refused with the one message.
    const alone = await postForm(app, '/equipe/connexion', {
      email: 'totp@agence.fr',
      password: PASSWORD,
    });
    expect(alone.statusCode).toBe(401);
    const replayed = await postForm(app, '/equipe/connexion', {
      email: 'totp@agence.fr',
      password: PASSWORD,
      code: totpCode(secret, totpStep(clock.now)),
    });
    expect(replayed.statusCode).toBe(401);
    later(30_000);
    await signIn(app, 'totp@agence.fr', PASSWORD, totpCode(secret, totpStep(clock.now)));
    await signIn(app, 'totp@agence.fr', PASSWORD, codes[0]);
    const spent = await postForm(app, '/equipe/connexion', {
      email: 'totp@agence.fr',
      password: PASSWORD,
      code: codes[0]!,
    });
    expect(spent.statusCode).toBe(401);
    expect(sessionCookieOf(spent)).toBeUndefined();
  }, 120_000);

  it('keeps an account an admin made require it on « Mon compte » until it is set up', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'chef@agence.fr', 'admin', clock.now);
    await activeMember(app, store, 'oblige@agence.fr', 'member', clock.now);
    const admin = await signIn(app, 'chef@agence.fr');
    const member = (await store.staff.accountByEmail('oblige@agence.fr'))!;
    const required = await postForm(
      app,
      `/equipe/equipe/${member.id}/exiger-2fa`,
      { _csrf: admin.csrf },
      admin.cookie,
    );
    expect(required.statusCode).toBe(303);
    const response = await postForm(app, '/equipe/connexion', {
      email: 'oblige@agence.fr',
      password: PASSWORD,
    });
    const cookie = sessionCookieOf(response)!;
    const home = await app.inject({ url: '/equipe', headers: { cookie } });
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/equipe/compte');
    const page = await app.inject({ url: '/equipe/compte', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Un administrateur exige la double authentification');
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(page.body)![1]!;
    const enabled = await postForm(
      app,
      '/equipe/compte/double-authentification',
      { _csrf: csrfOf(page.body), secret, code: totpCode(secret, totpStep(clock.now)) },
      cookie,
    );
    expect(enabled.statusCode).toBe(200);
    expect((await app.inject({ url: '/equipe', headers: { cookie } })).statusCode).toBe(200);
  }, 120_000);
});
