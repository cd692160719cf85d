import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** A random token for a link or a cookie: 32 bytes, base64url (no padding). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** What the journal keeps of a token: its SHA-256 (a stolen database opens no session). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * docs/workspace-security.md, "Passwords": scrypt with one of OWASP's equivalent settings (N=2^15,
 * r=8, p=3: 32 MiB and about as slow as N=2^17 with a quarter of the memory per sign-in), in Node's
 * thread pool. The settings are stored in the hash, so raising them later keeps old hashes valid.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...cost, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export interface Passwords {
  /** `scrypt$N$r$p$salt$key` (base64url). */
  hash(password: string): Promise<string>;
  /** Verifies `password` against `stored`; with no stored hash, does the same work and says no. */
  verify(password: string, stored: string | null): Promise<boolean>;
}

/** Hashes with `cost` (OWASP's by default; tests pass a cheaper one to stay fast on a busy machine). */
export function scryptPasswords(cost: ScryptCost = OWASP_SCRYPT): Passwords {
  const hash = async (password: string) => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, cost);
    return [
      'scrypt',
      cost.N,
      cost.r,
      cost.p,
      salt.toString('base64url'),
      key.toString('base64url'),
    ].join('$');
  };
  // Made once: an unknown address or an account without a password is checked against it, so
  // every sign-in costs one scrypt whatever the address (no enumeration by timing).
  let unusable: Promise<string> | undefined;
  return {
    hash,
    async verify(password, stored) {
      unusable ??= hash(randomToken());
      const [scheme, N, r, p, salt, key] = (stored ?? (await unusable)).split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64url');
      const actual = await derive(password, Buffer.from(salt, 'base64url'), {
        N: Number(N),
        r: Number(r),
        p: Number(p),
      });
      return timingSafeEqual(actual, expected) && stored !== null;
    },
  };
}

/**
 * docs/workspace-security.md, "Passwords": 12 to 128 characters (NIST SP 800-63B: length, no
 * composition rules).
 */
export const PASSWORD_LENGTH = { min: 12, max: 128 } as const;

export function passwordProblem(password: string, confirmation: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min)
    return `Le mot de passe doit compter au moins ${PASSWORD_LENGTH.min} caractères.`;
  if (length > PASSWORD_LENGTH.max)
    return `Le mot de passe doit compter au plus ${PASSWORD_LENGTH.max} caractères.`;
  if (password !== confirmation) return 'Les deux mots de passe ne sont pas identiques.';
  return undefined;
}
