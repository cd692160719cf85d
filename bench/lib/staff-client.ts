// A member of the agency's team over HTTP, as a browser is
// (docs/workspace-security.md, « Signing in »): invited the way `leadgate team add` does, the
// invitation's form followed, then the sign-in form posted; each page read with the session
// cookie on a kept-alive connection.
import { readFile, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { inviteStaff } from '../../src/features/staff/invitations.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { SITE_ENV } from './processes.ts';

/** One answer: its status, time to its first byte and to its last, its size. */
export interface Timed {
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** What Chromium sends with a form of the site: the guard's origin check passes (OWASP). */
const SAME_ORIGIN = { origin: SITE_ENV.SITE_URL, 'sec-fetch-site': 'same-origin' };

/**
 * One request, timed from its sending. `keepBody`: the text is kept (a page to read a token from);
 * an export's megabytes are only counted, as a browser saving them would.
 */
export function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  keepBody = true,
  onFirstChunk?: () => void,
): Promise<Timed> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let firstByteMs = 0;
        let bytes = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) {
            firstByteMs = performance.now() - start;
            onFirstChunk?.();
          }
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        res.once('error', reject);
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            firstByteMs: firstByteMs || performance.now() - start,
            totalMs: performance.now() - start,
            bytes,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });
}

function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  return timedRequest(url, {
    method: 'POST',
    headers: {
      ...SAME_ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie && { cookie }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

const PASSWORD = 'une phrase de passe de banc d’essai';

/**
 * A signed-in member of the team: invited through the store as `leadgate team add` does, the
 * password chosen on the invitation's page, then signed in on /equipe/connexion with what the
 * form holds (a `_csrf` field, were it to have one). A member, not an administrator: no second
 * factor is required of one. Returns the `Cookie` header a browser would send.
 */
let members = 0;

export async function signedInMember(store: Store, baseUrl: string): Promise<string> {
  members += 1;
  const email = `banc-${members}@agence.example`;
  const { link } = await inviteStaff(store, {
    email,
    role: 'member',
    siteUrl: SITE_ENV.SITE_URL,
    now: new Date(),
    invitedBy: null,
  });
  const jeton = new URL(link).searchParams.get('jeton')!;
  const set = await postForm(`${baseUrl}/equipe/invitation`, {
    jeton,
    name: 'Banc d’essai',
    password: PASSWORD,
    confirmation: PASSWORD,
  });
  if (set.status !== 303) throw new Error(`invitation refused: ${set.status} ${set.body}`);
  const page = await timedRequest(`${baseUrl}/equipe/connexion`);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  const signIn = await postForm(`${baseUrl}/equipe/connexion`, {
    email,
    password: PASSWORD,
    ...(csrf && { _csrf: csrf }),
  });
  const cookie = [signIn.headers['set-cookie'] ?? []]
    .flat()
    .find((line) => line.includes('leadgate_equipe='))
    ?.split(';')[0];
  if (signIn.status !== 303 || !cookie) throw new Error(`sign-in refused: ${signIn.status}`);
  return cookie;
}

/** Peak and current resident memory of a process, in bytes (/proc/<pid>/status). */
export async function memoryOf(pid: number): Promise<{ peak: number; now: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { peak: kb('VmHWM') * 1024, now: kb('VmRSS') * 1024 };
}

/**
 * Starts a process's peak RSS afresh (Linux, proc(5) « clear_refs »: 5 resets VmHWM to the current
 * RSS): signing in runs scrypt at OWASP's cost, 128 MB for a moment, which is not what a measure
 * after it is about.
 */
export async function resetPeakMemory(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
}
