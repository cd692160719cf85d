import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig } from '../../src/kernel/config.ts';

describe('limit settings read from the environment (docs/reliability.md)', () => {
  it('defaults: 64 KiB bodies, 30 requests a minute for every client, no proxy trusted', () => {
    expect(loadConfig({}).limits).toEqual({
      bodyBytes: 65_536,
      ratePerMinute: 30,
      rateLimitAllow: [],
      trustProxy: false,
      confirmationIntervalMs: 24 * 3600_000,
      confirmationDomainPerHour: 20,
      formMinFillMs: 3000,
      formTokenMaxAgeMs: 12 * 3600_000,
      formTokenMaxPosts: 3,
    });
  });

  it('reads BODY_LIMIT_BYTES, RATE_LIMIT_PER_MINUTE (0 = off), RATE_LIMIT_ALLOW and TRUST_PROXY', () => {
    const { limits } = loadConfig({
      BODY_LIMIT_BYTES: '1000',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_ALLOW: '127.0.0.1,::1',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(limits).toEqual({
      bodyBytes: 1000,
      ratePerMinute: 0,
      rateLimitAllow: ['127.0.0.1', '::1'],
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      confirmationIntervalMs: 24 * 3600_000,
      confirmationDomainPerHour: 20,
      formMinFillMs: 3000,
      formTokenMaxAgeMs: 12 * 3600_000,
      formTokenMaxPosts: 3,
    });
    expect(loadConfig({ TRUST_PROXY: 'false' }).limits.trustProxy).toBe(false);
  });

  it('refuses TRUST_PROXY=true with a line saying why', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /^TRUST_PROXY must be the proxies’ addresses or CIDRs.*`true` is refused/,
    );
  });

  it('refuses values it cannot honour rather than guessing', () => {
    for (const env of [
      { BODY_LIMIT_BYTES: '0' },
      { BODY_LIMIT_BYTES: '64k' },
      { RATE_LIMIT_PER_MINUTE: '-1' },
      { TRUST_PROXY: '2' },
      { TRUST_PROXY: '10.0.0.0/33' },
      { TRUST_PROXY: '999.1.1.1' },
      { RATE_LIMIT_ALLOW: 'loopback' },
      { RATE_LIMIT_ALLOW: '::1/129' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(InvalidConfigError);
    }
  });
});
