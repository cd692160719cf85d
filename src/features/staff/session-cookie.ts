import { createHmac } from 'node:crypto';

/**
 * docs/workspace-security.md, "Sessions": behind HTTPS the cookie is `__Host-leadgate_equipe`
 * (Secure, no Domain, Path=/: no subdomain and no plain-HTTP page can set or read it). With an
 * http:// SITE_URL on a loopback host (local development) it is `leadgate_equipe` without Secure;
 * with an http:// SITE_URL anywhere else the workspace refuses to sign anyone in.
 */
export interface CookiePolicy {
  name: string;
  secure: boolean;
  /** False when SITE_URL is plain HTTP on a non-loopback host. */
  usable: boolean;
}

const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function cookiePolicy(siteUrl: string): CookiePolicy {
  const url = new URL(siteUrl);
  if (url.protocol === 'https:')
    return { name: '__Host-leadgate_equipe', secure: true, usable: true };
  return { name: 'leadgate_equipe', secure: false, usable: LOOPBACK.test(url.hostname) };
}

export function sessionCookie(policy: CookiePolicy, token: string, maxAgeSeconds: number): string {
  return [
    `${policy.name}=${token}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(policy.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedCookie(policy: CookiePolicy): string {
  return sessionCookie(policy, '', 0);
}

/** The value of one cookie in a Cookie header (RFC 6265 section 5.4), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    if (part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim() || undefined;
  }
  return undefined;
}

/** The session's CSRF token, derived from its secret token: nothing more to store (OWASP HMAC pattern). */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('leadgate-equipe-csrf').digest('base64url');
}
