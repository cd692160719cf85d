import type { Env } from './env-schema.ts';

/**
 * The configured values that must never be stored or shown, masked literally wherever a provider
 * echoes them (docs/reliability.md, "Hostile input"): the keys, and the password of every URL, whole
 * and percent-decoded, as a server may quote either.
 */
export function configuredSecrets(env: Env): string[] {
  const secrets = [env.BREVO_API_KEY, env.WEBHOOK_SECRET, env.INBOUND_SECRET];
  for (const url of [env.SMTP_URL, env.DATABASE_URL, env.REDIS_URL]) {
    if (url === undefined) continue;
    const password = URL.canParse(url) ? new URL(url).password : '';
    if (password) secrets.push(password, safeDecode(password));
  }
  return [...new Set(secrets.filter((secret): secret is string => Boolean(secret)))];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
