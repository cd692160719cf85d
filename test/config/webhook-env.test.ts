import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig } from '../../src/kernel/config.ts';

const key = (bytes: number) => `whsec_${Buffer.alloc(bytes, 1).toString('base64')}`;
const SECRET = key(32);

/** The one line a wrong environment produces. */
function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('webhook settings, checked at start (docs/webhooks.md, Configuration)', () => {
  it('WEBHOOK_SECRET: whsec_ and the canonical base64 of 24 to 64 bytes, never repeated', () => {
    expect(loadConfig({ WEBHOOK_SECRET: key(24) }).webhooks.key).toHaveLength(24);
    expect(loadConfig({ WEBHOOK_SECRET: key(64) }).webhooks.key).toHaveLength(64);
    for (const bad of [key(23), key(65), key(32).slice(6), `${key(32)}!`, 'whsec_', `${SECRET}=`]) {
      const line = problem({ WEBHOOK_SECRET: bad });
      expect(line).toMatch(
        /^WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes/,
      );
      expect(line).toContain('value not shown');
    }
  });

  it('WEBHOOK_URLS: http(s) URLs, each once, only with WEBHOOK_SECRET; no URL repeated in the line', () => {
    const urls = 'https://crm.example.fr/hooks/abc , https://n8n.example.fr/webhook/x?token=t0k3n';
    expect(loadConfig({ WEBHOOK_URLS: urls, WEBHOOK_SECRET: SECRET }).webhooks.urls).toEqual([
      'https://crm.example.fr/hooks/abc',
      'https://n8n.example.fr/webhook/x?token=t0k3n',
    ]);
    expect(problem({ WEBHOOK_URLS: urls })).toBe('WEBHOOK_SECRET is required by WEBHOOK_URLS');
    for (const bad of [
      'https://a.example, ftp://t0k3n@b.example',
      'n8n.example/t0k3n',
      'https://a,',
    ]) {
      const line = problem({ WEBHOOK_URLS: bad, WEBHOOK_SECRET: SECRET });
      expect(line).toMatch(/^WEBHOOK_URLS must be comma-separated http:\/\/ or https:\/\/ URLs/);
      expect(line).not.toContain('t0k3n');
    }
    expect(
      problem({ WEBHOOK_URLS: 'https://a.example/,https://a.example', WEBHOOK_SECRET: SECRET }),
    ).toBe('WEBHOOK_URLS lists the same URL twice');
  });

  it('WEBHOOK_ALLOW_PRIVATE is true or false, false by default; WEBHOOK_TIMEOUT_MS defaults to 5 s', () => {
    expect(loadConfig({}).webhooks).toEqual({
      urls: [],
      key: undefined,
      allowPrivate: false,
      timeoutMs: 5000,
    });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true);
    expect(problem({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toMatch(
      /^WEBHOOK_ALLOW_PRIVATE must be one of false, true/,
    );
  });
});
