import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../test/helpers/fake-brevo.ts';
import { CONNECTIONS, CONTACT_BODY } from './contact.ts';
import { median, ms, percent, round0, verdict } from './lib/report.ts';
import { withServer, type ServerUnderTest } from './lib/servers.ts';
import { runWrk, type MeasuredLoad } from './lib/wrk.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

/** Accepted leads/s under wrk, and the rate at which the same server's dispatcher delivered them. */
export interface Throughput {
  accepted: MeasuredLoad;
  /** Leads delivered per second (see each measure for the window). */
  deliveredPerSecond: number;
  /** Leads the measure accepted, and how many of them were delivered at its end. */
  acceptedLeads: number;
  deliveredLeads: number;
  /** Seconds the delivered figure was measured over. */
  deliverySeconds: number;
}

export interface BurstResult {
  requests: number;
  ratePerSecond: number;
  statuses: Record<number, number>;
  p50: number;
  p99: number;
  /** From the first request sent to the last lead delivered; undefined when not all were. */
  allDeliveredAfterSeconds: number | undefined;
  delivered: number;
  /** Addresses the stand-in stored, contact calls it accepted (not 429), 429s it answered. */
  contacts: number;
  contactCallsAccepted: number;
  rateLimited: number;
  emailsSent: number;
  distinctEmailKeys: number;
}

export interface BigBurstResult {
  leads: number;
  acceptSeconds: number;
  /** The server's cores busy while the requests were answered (1.00 = one core). */
  serverCores: number;
  deliveredAfterSeconds: number | undefined;
  delivered: number;
}

export interface DeliveryRound {
  outbox: Throughput;
  brevo: Throughput;
  bare: MeasuredLoad;
  burst: BurstResult;
  bigBurst: BigBurstResult;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
/** How long a measure waits for a backlog to drain before it reports what it has. */
const DRAIN_LIMIT_MS = 180_000;
/** The Brevo case is bounded by the budget: delivered/s is counted over this window after the load. */
const BREVO_WINDOW_SECONDS = 20;

/** Counts the journal's leads, read-only, from the bench process (SQLite in WAL allows it). */
function journalOf(target: ServerUnderTest) {
  const db = new SQLite(join(target.dataDir, 'leadgate.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  const count = db.prepare('select count(*) as n from leads');
  const delivered = db.prepare("select count(*) as n from leads where status = 'delivered'");
  return {
    leads: () => (count.get() as { n: number }).n,
    delivered: () => (delivered.get() as { n: number }).n,
    close: () => db.close(),
  };
}

type Journal = ReturnType<typeof journalOf>;

/** Polls until every lead of the journal is delivered; resolves with when that was seen, or undefined. */
async function drained(journal: Journal, limitMs = DRAIN_LIMIT_MS): Promise<number | undefined> {
  const until = performance.now() + limitMs;
  while (performance.now() < until) {
    if (journal.delivered() >= journal.leads()) return performance.now();
    await sleep(20);
  }
  return undefined;
}

function loadOn(target: ServerUnderTest, seconds: number) {
  return runWrk({
    url: `${target.baseUrl}/api/contact`,
    method: 'POST',
    headers: HEADERS,
    body: CONTACT_BODY,
    connections: CONNECTIONS,
    seconds,
    serverPid: target.pid,
  });
}

/**
 * Outbox: wrk for `seconds` after a warm-up whose leads are delivered first; delivered/s is the leads
 * of the measure over the time from its start to the last of them delivered (the dispatcher runs in
 * the same process during the load, as in production).
 */
async function outboxThroughput(root: string, env: Record<string, string>, seconds: number) {
  return withServer(root, SERVE_ARGS, { ...env, MAIL_PROVIDER: 'outbox' }, async (target) => {
    const journal = journalOf(target);
    try {
      await loadOn(target, 3);
      await drained(journal);
      const before = journal.leads();
      const started = performance.now();
      const accepted = await loadOn(target, seconds);
      const end = (await drained(journal)) ?? performance.now();
      const acceptedLeads = journal.leads() - before;
      const deliveredLeads = acceptedLeads - (journal.leads() - journal.delivered());
      const deliverySeconds = (end - started) / 1000;
      return {
        accepted,
        acceptedLeads,
        deliveredLeads,
        deliverySeconds,
        deliveredPerSecond: deliveredLeads / deliverySeconds,
      };
    } finally {
      journal.close();
    }
  });
}

/** `serve` delivering through the Brevo stand-in, limited to Brevo's 10 contact calls a second. */
async function withBrevoStandIn<T>(
  root: string,
  env: Record<string, string>,
  work: (target: ServerUnderTest, journal: Journal, fake: FakeBrevo) => Promise<T>,
): Promise<T> {
  const fake = await startFakeBrevo('bench');
  fake.limit({ contactsPerSecond: 10 });
  try {
    return await withServer(
      root,
      SERVE_ARGS,
      { ...env, ...brevoStandInEnv(fake, 'bench') },
      async (target) => {
        const journal = journalOf(target);
        try {
          return await work(target, journal, fake);
        } finally {
          journal.close();
        }
      },
    );
  } finally {
    await fake.close();
  }
}

/**
 * The Brevo stand-in limited to 10 contact calls a second (Brevo's own limit): wrk for `seconds`,
 * then delivered/s counted over a fixed window, since the budget, not the server, sets the pace and
 * the backlog the load leaves would take minutes to drain.
 */
async function brevoThroughput(root: string, env: Record<string, string>, seconds: number) {
  return withBrevoStandIn(root, env, async (target, journal) => {
    await loadOn(target, 3);
    const accepted = await loadOn(target, seconds);
    const acceptedLeads = journal.leads();
    const first = journal.delivered();
    await sleep(BREVO_WINDOW_SECONDS * 1000);
    const deliveredLeads = journal.delivered() - first;
    return {
      accepted,
      acceptedLeads,
      deliveredLeads,
      deliverySeconds: BREVO_WINDOW_SECONDS,
      deliveredPerSecond: deliveredLeads / BREVO_WINDOW_SECONDS,
    };
  });
}

async function bareThroughput(root: string, env: Record<string, string>, seconds: number) {
  return withServer(root, ['--import', 'tsx', 'bench/bare-server.ts'], env, async (target) => {
    await loadOn(target, 3);
    return loadOn(target, seconds);
  });
}

/**
 * The sign-up burst at full size: 200 newsletter sign-ups at 20 a second against the stand-in
 * limited to 10 contact calls a second (leadgate's budget: BREVO_CONTACTS_PER_SECOND, 8 by default).
 */
async function signUpBurst(
  root: string,
  env: Record<string, string>,
  requests = 200,
  ratePerSecond = 20,
): Promise<BurstResult> {
  // Single opt-in: each sign-up is a contact call at once, the load this burst measures (under the
  // default double opt-in the contact is created only when the person confirms, docs/consent.md).
  const singleOptIn = { ...env, NEWSLETTER_DOUBLE_OPT_IN: 'false' };
  return withBrevoStandIn(root, singleOptIn, async (target, journal, fake) => {
    const started = performance.now();
    const answers: Promise<{ status: number; ms: number }>[] = [];
    for (let i = 0; i < requests; i++) {
      await sleep(started + (i * 1000) / ratePerSecond - performance.now());
      answers.push(
        timedPost(`${target.baseUrl}/api/subscribe`, {
          email: `abonne-${i}@example.fr`,
          firstName: 'Léa',
        }),
      );
    }
    const settled = await Promise.all(answers);
    const end = await drained(journal, 60_000 - (performance.now() - started));
    const statuses: Record<number, number> = {};
    for (const { status } of settled) statuses[status] = (statuses[status] ?? 0) + 1;
    const latencies = settled.map((answer) => answer.ms).sort((a, b) => a - b);
    const keys = fake.sent.map(
      (mail) => (mail.headers as { idempotencyKey?: string } | undefined)?.idempotencyKey,
    );
    return {
      requests,
      ratePerSecond,
      statuses,
      p50: median(latencies),
      p99: latencies[Math.ceil(0.99 * latencies.length) - 1]!,
      allDeliveredAfterSeconds: end === undefined ? undefined : (end - started) / 1000,
      delivered: journal.delivered(),
      contacts: fake.contacts.size,
      contactCallsAccepted: fake.requestsTo('/contacts').length - fake.rateLimited,
      rateLimited: fake.rateLimited,
      emailsSent: fake.sent.length,
      distinctEmailKeys: new Set(keys).size,
    };
  });
}

async function timedPost(url: string, body: object): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/**
 * 10,000 contact requests sent as fast as 50 connections go (wrk, stopping after 10,000 answers:
 * fetch loops in this process took a core of the two, half the machine the server needed), then the
 * time until every lead of the journal is delivered to the outbox. The requests in flight when wrk
 * stops may still be journaled: `leads` counts what the journal holds.
 */
async function bigBurst(root: string, env: Record<string, string>, answers = 10_000) {
  return withServer(root, SERVE_ARGS, { ...env, MAIL_PROVIDER: 'outbox' }, async (target) => {
    const journal = journalOf(target);
    try {
      const started = performance.now();
      const accepted = await runWrk({
        url: `${target.baseUrl}/api/contact`,
        method: 'POST',
        headers: HEADERS,
        body: CONTACT_BODY,
        connections: CONNECTIONS,
        seconds: 300,
        stopAfter: answers,
        serverPid: target.pid,
      });
      if (accepted.failures > 0) throw new Error(`big burst: ${accepted.failureDetail}`);
      const acceptSeconds = (performance.now() - started) / 1000;
      const end = await drained(journal, 600_000);
      return {
        leads: journal.leads(),
        acceptSeconds,
        serverCores: accepted.serverCores,
        deliveredAfterSeconds: end === undefined ? undefined : (end - started) / 1000,
        delivered: journal.delivered(),
      };
    } finally {
      journal.close();
    }
  });
}

/** One round of every delivery measure, one after the other (bench/README.md). */
export async function deliveryRound(
  root: string,
  distDir: string,
  seconds: number,
  log: (line: string) => void,
): Promise<DeliveryRound> {
  const env = { DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '0', DELIVERY: 'queued' };
  const outbox = await outboxThroughput(root, env, seconds);
  log(
    `delivery outbox: ${Math.round(outbox.accepted.requestsPerSecond)} accepted/s, ${outbox.deliveredPerSecond.toFixed(0)} delivered/s`,
  );
  const brevo = await brevoThroughput(root, env, seconds);
  log(
    `delivery brevo: ${Math.round(brevo.accepted.requestsPerSecond)} accepted/s, ${brevo.deliveredPerSecond.toFixed(1)} delivered/s`,
  );
  const bare = await bareThroughput(root, env, seconds);
  log(`delivery bare: ${Math.round(bare.requestsPerSecond)} req/s`);
  const burst = await signUpBurst(root, env);
  log(
    `delivery burst: p99 ${burst.p99.toFixed(0)} ms, delivered after ${burst.allDeliveredAfterSeconds?.toFixed(1)} s, ${burst.rateLimited} 429s`,
  );
  const big = await bigBurst(root, env);
  log(
    `delivery 10k: accepted in ${big.acceptSeconds.toFixed(1)} s, delivered after ${big.deliveredAfterSeconds?.toFixed(1)} s`,
  );
  return { outbox, brevo, bare, burst, bigBurst: big };
}

const failed = (load: MeasuredLoad) =>
  load.failures === 0 ? '0' : `${load.failures} (${load.failureDetail})`;

const seconds1 = (value: number | undefined) =>
  value === undefined ? '**not all**' : `${value.toFixed(1)} s`;

/** The RESULTS.md section of one delivery round. */
export function deliverySection(
  round: DeliveryRound,
  seconds: number,
  loadAverage: string,
): string {
  const { outbox, brevo, bare, burst, bigBurst: big } = round;
  const ratio = outbox.accepted.requestsPerSecond / bare.requestsPerSecond;
  const ok = burst.statuses[200] ?? 0;
  const row = (name: string, t: Throughput, window: string) =>
    `| ${name} | ${round0(t.accepted.requestsPerSecond)} | ${ms(t.accepted.p99)} | ${failed(t.accepted)} | ${t.accepted.serverCores.toFixed(2)} | ${t.deliveredPerSecond.toFixed(1)} | ${window} |`;
  return `## Delivery: accepted and delivered leads (DELIVERY=queued)

One round. Load average of the machine at the start: **${loadAverage}** (${cpus().length} cores: above
${cpus().length}, other work shared them, and the figures compare the servers of this run only).
\`leadgate serve\`, SQLite journal, RATE_LIMIT_PER_MINUTE=0, POST /api/contact with ${CONNECTIONS} connections
for ${seconds} s after a 3 s warm-up. Failed: requests wrk gave up on (2 s) or that got an error; reported,
not retried, since the point is the delivery behind them.

| Server | accepted leads/s | p99 | failed | server CPU (cores) | delivered leads/s | delivered measured over |
| --- | ---: | ---: | ---: | ---: | ---: | --- |
${row('leadgate, outbox', outbox, `${outbox.deliveredLeads} of ${outbox.acceptedLeads} leads, start of the load to the last one delivered (${outbox.deliverySeconds.toFixed(1)} s)`)}
${row('leadgate, Brevo stand-in limited to 10/s', brevo, `${BREVO_WINDOW_SECONDS} s after the load (${brevo.acceptedLeads} leads waiting; the budget, 8 contact calls/s, sets the pace)`)}
| bare Fastify | ${round0(bare.requestsPerSecond)} | ${ms(bare.p99)} | ${failed(bare)} | ${bare.serverCores.toFixed(2)} | – | – |

POST ratio in queued mode (outbox): **${percent(ratio)}** of the bare route. Target ≥ 60 %: ${verdict(ratio >= 0.6)}.

### The sign-up burst, full size

${burst.requests} newsletter sign-ups at ${burst.ratePerSecond}/s against the Brevo stand-in limited to
10 contact calls a second (leadgate's budget: 8/s by default).

| Figure | Result | Target |
| --- | --- | --- |
| answers | ${Object.entries(burst.statuses)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ')} | all 200: ${verdict(ok === burst.requests)} |
| p50 / p99 of the answers | ${ms(Math.round(burst.p50))} / ${ms(Math.round(burst.p99))} | p99 < 100 ms: ${verdict(burst.p99 < 100)} |
| all delivered after (from the first request) | ${seconds1(burst.allDeliveredAfterSeconds)} (${burst.delivered} delivered) | < 60 s: ${verdict(burst.allDeliveredAfterSeconds !== undefined)} |
| contacts stored / contact calls accepted | ${burst.contacts} / ${burst.contactCallsAccepted} | each once: ${verdict(burst.contacts === burst.requests && burst.contactCallsAccepted === burst.requests)} |
| e-mails sent (one notification a sign-up) / distinct idempotency keys | ${burst.emailsSent} / ${burst.distinctEmailKeys} | each once: ${verdict(burst.emailsSent === burst.distinctEmailKeys && burst.emailsSent === burst.requests)} |
| 429s reaching the stand-in | ${burst.rateLimited} | < 20: ${verdict(burst.rateLimited < 20)} |

### A burst of 10,000 leads (outbox)

10,000 contact requests sent by wrk on ${CONNECTIONS} connections, which stops at the 10,000th answer:
answered in **${big.acceptSeconds.toFixed(1)} s** (server CPU ${big.serverCores.toFixed(2)} cores); the journal then
held ${big.leads.toLocaleString('en-US')} leads (requests in flight when wrk stopped are journaled too), every one
delivered (two e-mails each) **${seconds1(big.deliveredAfterSeconds)}** after the first request was sent
(${big.delivered} delivered). Target < 10 s: ${verdict((big.deliveredAfterSeconds ?? Infinity) < 10)}.`;
}
