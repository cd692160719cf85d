import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchTurns as turnsFromNow } from './late-turns.ts';

/** One request as it reached the fake: what leadgate really put on the wire. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A scripted answer for one route, replacing Brevo's behaviour until cleared. */
export type Scripted =
  | { status: number; body?: unknown }
  /** Accept the request and never answer (leadgate must give up within PROVIDER_TIMEOUT_MS). */
  | 'hang'
  /** 201 with a body that is not JSON. */
  | 'garbage'
  /** Decides per request; `undefined` lets Brevo's normal behaviour answer. */
  | ((body: Record<string, unknown>) => { status: number; body?: unknown } | undefined);

interface StoredContact {
  id: number;
  attributes: Record<string, unknown>;
  listIds: number[];
}

/**
 * A loopback stand-in for Brevo's API v3 (the routes leadgate calls), stateful enough to answer as
 * Brevo does: `POST /contacts` 201 `{id}` / 204 when updated / 400 duplicate_parameter without
 * updateEnabled; `POST /contacts/lists/{listId}/contacts/add` and `…/remove` 201 / 400 when
 * nothing changes; `DELETE /contacts/{identifier}` 204 / 404; `POST /smtp/email` 201 `{messageId}`, 400 duplicate_parameter for a reused
 * `headers.idempotencyKey`; 401 unauthorized for a wrong `api-key`. `script()` forces other answers.
 */
export async function startFakeBrevo(apiKey = 'k') {
  const requests: RecordedRequest[] = [];
  /** When each request reached the fake (performance.now()), per path: what a sliding window counts. */
  const arrivals = new Map<string, number[]>();
  /**
   * How late this process got to its turns (the event loop's delay, the machine's scheduling
   * included): a call that arrived during a late turn is timed when the turn comes.
   */
  let lateTurns = turnsFromNow();
  /** Brevo's limit on POST /contacts (10 a second per account), enforced when `limitContacts` is on. */
  const limits = { contactsPerSecond: 0, answerAfterMs: 0, pauseSeconds: 0 };
  const contactCalls: number[] = [];
  /** 429s answered for the rate limit. */
  let rateLimited = 0;
  /** A stricter provider (`pauseSeconds`): no call before this (Date.now()) after a 429. */
  let pausedUntil = 0;
  /** Calls that arrived while that pause was on: what a client honouring the 429 never sends. */
  let callsDuringPause = 0;
  const contacts = new Map<string, StoredContact>();
  /** E-mails Brevo accepted for sending (a duplicate idempotency key adds none). */
  const sent: Record<string, unknown>[] = [];
  const usedKeys = new Set<string>();
  const scripts = new Map<string, Scripted>();
  /**
   * The account as Brevo knows it: contact attributes must exist (« Attributes must already exist in
   * the account »), the sender must be a validated one, lists must exist; `undefined` accepts any.
   * `refusedAddresses` are addresses Brevo refuses as invalid.
   */
  const account: {
    attributes?: Set<string>;
    senders?: Set<string>;
    lists?: Set<number>;
    /** Sending domains authenticated in Brevo (any of their addresses may send). */
    domains?: Set<string>;
    refusedAddresses: Set<string>;
  } = { refusedAddresses: new Set() };

  function brevo(path: string, body: Record<string, unknown>): { status: number; body?: unknown } {
    if (path === '/contacts') {
      const email = String(body.email ?? '').toLowerCase();
      if (!email) return error(400, 'missing_parameter', 'email is missing');
      if (account.refusedAddresses.has(email)) {
        return error(400, 'invalid_parameter', 'Invalid email address');
      }
      const existing = contacts.get(email);
      const attributes = (body.attributes ?? {}) as Record<string, unknown>;
      const listIds = (body.listIds ?? []) as number[];
      const unknown = Object.keys(attributes).find(
        (name) => !(account.attributes?.has(name) ?? true),
      );
      if (unknown) return error(400, 'invalid_parameter', `Attribute ${unknown} not found`);
      const missingList = listIds.find((id) => !(account.lists?.has(id) ?? true));
      if (missingList !== undefined) {
        return error(404, 'document_not_found', `List ID ${missingList} does not exist`);
      }
      if (!existing) {
        contacts.set(email, { id: contacts.size + 1, attributes: { ...attributes }, listIds });
        return { status: 201, body: { id: contacts.size } };
      }
      if (body.updateEnabled !== true) {
        return {
          status: 400,
          body: {
            code: 'duplicate_parameter',
            message: 'Unable to create contact, email is already associated with another Contact',
            metadata: { duplicate_identifiers: ['email'] },
          },
        };
      }
      Object.assign(existing.attributes, attributes);
      existing.listIds = [...new Set([...existing.listIds, ...listIds])];
      return { status: 204 };
    }
    const listAdd = /^\/contacts\/lists\/(\d+)\/contacts\/add$/.exec(path);
    if (listAdd) {
      const listId = Number(listAdd[1]);
      const emails = ((body.emails ?? []) as string[]).map((email) => email.toLowerCase());
      const known = emails.filter((email) => contacts.has(email));
      const added = known.filter((email) => !contacts.get(email)!.listIds.includes(listId));
      if (added.length === 0) {
        return error(400, 'invalid_parameter', 'Contact already in list and/or does not exist');
      }
      for (const email of added) contacts.get(email)!.listIds.push(listId);
      const failure = emails.filter((email) => !added.includes(email));
      return { status: 201, body: { contacts: { success: added, failure } } };
    }
    const listRemove = /^\/contacts\/lists\/(\d+)\/contacts\/remove$/.exec(path);
    if (listRemove) {
      const listId = Number(listRemove[1]);
      const emails = ((body.emails ?? []) as string[]).map((email) => email.toLowerCase());
      const removed = emails.filter((email) => contacts.get(email)?.listIds.includes(listId));
      if (removed.length === 0) {
        return error(
          400,
          'invalid_parameter',
          'Contact already removed from list and/or does not exist',
        );
      }
      for (const email of removed) {
        const contact = contacts.get(email)!;
        contact.listIds = contact.listIds.filter((id) => id !== listId);
      }
      const failure = emails.filter((email) => !removed.includes(email));
      return { status: 201, body: { contacts: { success: removed, failure } } };
    }
    if (path === '/smtp/email') {
      const to = body.to as { email?: string }[] | undefined;
      if (!to?.length) return error(400, 'missing_parameter', 'to is missing');
      if (body.templateId === undefined && !(body.subject && body.htmlContent && body.sender)) {
        return error(400, 'missing_parameter', 'subject, htmlContent and sender are required');
      }
      const sender = (body.sender as { email?: string } | undefined)?.email?.toLowerCase();
      if (sender && !(account.senders?.has(sender) ?? true)) {
        return error(
          400,
          'invalid_parameter',
          `Sending has been rejected because the sender you used ${sender} is not valid. Validate your sender or authenticate your domain`,
        );
      }
      const recipient = to[0]?.email?.toLowerCase() ?? '';
      if (account.refusedAddresses.has(recipient)) {
        return error(400, 'invalid_parameter', 'email is not valid in to');
      }
      const key = (body.headers as { idempotencyKey?: string } | undefined)?.idempotencyKey;
      if (key && usedKeys.has(key))
        return error(400, 'duplicate_parameter', 'Request already received');
      if (key) usedKeys.add(key);
      sent.push(body);
      return {
        status: 201,
        body: { messageId: `<${Date.now()}.${sent.length}@smtp-relay.mailin.fr>` },
      };
    }
    return error(404, 'document_not_found', 'Invalid route');
  }

  /** getAttributes, getLists, getSenders: what the account holds (any, when not set). */
  function read(path: string): { status: number; body?: unknown } {
    if (path === '/contacts/attributes') {
      const names = [...(account.attributes ?? ['PRENOM', 'NOM', 'SMS'])];
      return {
        status: 200,
        body: { attributes: names.map((name) => ({ name, category: 'normal', type: 'text' })) },
      };
    }
    if (path === '/contacts/lists') {
      const ids = [...(account.lists ?? [8])];
      return {
        status: 200,
        body: { lists: ids.map((id) => ({ id, name: `Liste ${id}` })), count: ids.length },
      };
    }
    if (path === '/senders') {
      const emails = [...(account.senders ?? [])];
      return {
        status: 200,
        body: { senders: emails.map((email, id) => ({ id, name: 'Agence', email, active: true })) },
      };
    }
    if (path === '/senders/domains') {
      const names = [...(account.domains ?? [])];
      return {
        status: 200,
        body: {
          domains: names.map((domain_name, id) => ({
            id,
            domain_name,
            authenticated: true,
            verified: true,
          })),
        },
      };
    }
    return error(404, 'document_not_found', 'Invalid route');
  }

  /** `DELETE /contacts/{identifier}` (deleteContact): 204, or 404 when no such contact. */
  function deleteContact(identifier: string): { status: number; body?: unknown } {
    const email = identifier.toLowerCase();
    if (!contacts.delete(email)) return error(404, 'document_not_found', 'Contact does not exist');
    return { status: 204 };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Brevo counts a call when it arrives, before its body is read.
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // kept as text: the test sees what arrived
    }
    const path = (request.url ?? '/').split('?')[0]!;
    arrivals.set(path, [...(arrivals.get(path) ?? []), arrived]);
    requests.push({ method: request.method ?? '', path, headers: request.headers, body });

    if (path === '/contacts' && limits.contactsPerSecond > 0) {
      // A window of one second, as Brevo documents: 429 with x-sib-ratelimit-* headers beyond it.
      const now = Date.now();
      while (contactCalls.length > 0 && contactCalls[0]! <= now - 1000) contactCalls.shift();
      if (now < pausedUntil) callsDuringPause += 1;
      if (now < pausedUntil || contactCalls.length >= limits.contactsPerSecond) {
        rateLimited += 1;
        // Brevo's own window resets within the second; a stricter provider pauses the account.
        const reset =
          limits.pauseSeconds ||
          Math.max(1, Math.ceil(((contactCalls[0] ?? now) + 1000 - now) / 1000));
        if (limits.pauseSeconds && now >= pausedUntil) pausedUntil = now + reset * 1000;
        response
          .writeHead(429, {
            'content-type': 'application/json',
            'x-sib-ratelimit-limit': String(limits.contactsPerSecond),
            'x-sib-ratelimit-remaining': '0',
            'x-sib-ratelimit-reset': String(reset),
          })
          .end(JSON.stringify({ code: 'too_many_requests', message: 'Too many requests' }));
        return;
      }
      contactCalls.push(now);
    }
    // Brevo during an incident: it does the work, then answers late.
    if (limits.answerAfterMs > 0)
      await new Promise((resolve) => setTimeout(resolve, limits.answerAfterMs));

    const script = scripts.get(path);
    const scripted =
      typeof script === 'function' ? script((body ?? {}) as Record<string, unknown>) : script;
    if (scripted === 'hang') return;
    if (scripted === 'garbage') {
      response.writeHead(201, { 'content-type': 'application/json' }).end('<html>oops</html>');
      return;
    }
    const answer =
      scripted ??
      (request.headers['api-key'] !== apiKey
        ? error(401, 'unauthorized', 'Key not found')
        : request.method === 'DELETE' && path.startsWith('/contacts/')
          ? deleteContact(decodeURIComponent(path.slice('/contacts/'.length)))
          : request.method === 'GET'
            ? read(path)
            : request.method !== 'POST'
              ? error(
                  405,
                  'method_not_allowed',
                  `${request.method} Method is not allowed on this path`,
                )
              : brevo(path, (body ?? {}) as Record<string, unknown>));
    if (answer.body === undefined) response.writeHead(answer.status).end();
    else {
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    contacts,
    sent,
    /** Answers `path` with `answer` from now on; `undefined` restores Brevo's behaviour. */
    script(path: string, answer: Scripted | undefined) {
      if (answer === undefined) scripts.delete(path);
      else scripts.set(path, answer);
    },
    requestsTo(path: string) {
      return requests.filter((request) => request.path === path);
    },
    /** The most calls to `path` that arrived within any `windowMs` (a sliding window, as Brevo counts). */
    busiest(path: string, windowMs: number): number {
      const times = arrivals.get(path) ?? [];
      let busiest = 0;
      for (let first = 0, last = 0; last < times.length; last += 1) {
        while (times[last]! - times[first]! >= windowMs) first += 1;
        busiest = Math.max(busiest, last - first + 1);
      }
      return busiest;
    },
    /** From first to last call to `path`, in milliseconds. */
    spanOf(path: string): number {
      const times = arrivals.get(path) ?? [];
      return times.length > 1 ? times.at(-1)! - times[0]! : 0;
    },
    /** The latest this process got to a turn since `watchTurns()`, in milliseconds. */
    latestTurnMs(): number {
      return lateTurns.longestMs();
    },
    watchTurns() {
      lateTurns.stop();
      lateTurns = turnsFromNow();
    },
    /**
     * Enforces Brevo's /contacts limit (0: off) and answers every call `answerAfterMs` late. With
     * `pauseSeconds`, a call over the limit pauses the account that long (`x-sib-ratelimit-reset`).
     */
    limit(settings: Partial<typeof limits>) {
      Object.assign(limits, settings);
    },
    /** The account's attributes, validated senders, lists and refused addresses (see `account`). */
    account,
    /** How many 429s the rate limit answered. */
    get rateLimited() {
      return rateLimited;
    },
    /** How many calls arrived during a pause announced by a 429 (`pauseSeconds`). */
    get callsDuringPause() {
      return callsDuringPause;
    },
    /** Brevo keeps idempotency keys 30 minutes: forgetting them is what "an hour later" looks like. */
    forgetIdempotencyKeys() {
      usedKeys.clear();
    },
    async close() {
      lateTurns.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeBrevo = Awaited<ReturnType<typeof startFakeBrevo>>;

/** The settings of a leadgate that delivers through this stand-in (its key is `apiKey`). */
export function brevoStandInEnv(fake: FakeBrevo, apiKey = 'k'): Record<string, string> {
  return {
    MAIL_PROVIDER: 'brevo',
    BREVO_API_KEY: apiKey,
    BREVO_API_URL: fake.url,
    BREVO_NEWSLETTER_LIST_ID: '8',
  };
}

function error(status: number, code: string, message: string) {
  return { status, body: { code, message } };
}
