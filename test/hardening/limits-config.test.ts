import { describe, expect, it } from 'vitest';
import { InvalidConfigError, loadConfig } from '../../src/config.ts';

describe('issue 4: limit settings read from the environment', () => {
  it('defaults: 64 KiB bodies, 30 requests a minute sparing loopback, no proxy trusted', () => {
    expect(loadConfig({}).limits).toEqual({
      bodyBytes: 65_536,
      ratePerMinute: 30,
      rateLimitSparesLoopback: true,
      trustProxy: false,
    });
  });

  it('reads BODY_LIMIT_BYTES, RATE_LIMIT_PER_MINUTE (0 = off) and TRUST_PROXY', () => {
    const { limits } = loadConfig({
      BODY_LIMIT_BYTES: '1000',
      RATE_LIMIT_PER_MINUTE: '0',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(limits).toEqual({
      bodyBytes: 1000,
      ratePerMinute: 0,
      rateLimitSparesLoopback: false,
      trustProxy: '10.0.0.0/8, 127.0.0.1',
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).limits.trustProxy).toBe(true);
  });

  it('refuses values it cannot honour rather than guessing', () => {
    for (const env of [
      { BODY_LIMIT_BYTES: '0' },
      { BODY_LIMIT_BYTES: '64k' },
      { RATE_LIMIT_PER_MINUTE: '-1' },
      { TRUST_PROXY: '2' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(InvalidConfigError);
    }
  });
});
