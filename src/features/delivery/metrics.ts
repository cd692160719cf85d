import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { summarizeBacklog } from './backlog.ts';
import type { Deliveries } from '../../kernel/lead/deliveries.ts';
import { overriding } from './overriding.ts';

/**
 * docs/operations.md: what an operator watches, in Prometheus' text format. Counters count on this
 * node since it started; the backlog gauges read the shared journal at each scrape, so every node
 * reports the same backlog (alert on max(), not sum()).
 */
export function createMetrics(deliveries: Pick<Deliveries, 'backlog'>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const metrics = {
    registry,
    requests: new Counter({
      name: 'leadgate_http_requests_total',
      help: 'Answers sent, by route pattern, method and status (pages served from memory excluded)',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    leadsAccepted: new Counter({
      name: 'leadgate_leads_accepted_total',
      help: 'Leads written to the journal, by kind',
      labelNames: ['kind'],
      registers,
    }),
    leadsTrapped: new Counter({
      name: 'leadgate_leads_spam_total',
      help: 'Site form posts the bot trap caught (journaled as spam, never delivered), by kind',
      labelNames: ['kind'],
      registers,
    }),
    deliveries: new Counter({
      name: 'leadgate_deliveries_total',
      help: 'Delivery attempts, by step (destination) and outcome (done, retrying, refused, dead, postponed)',
      labelNames: ['step', 'outcome'],
      registers,
    }),
    journalWrite: new Histogram({
      name: 'leadgate_journal_write_seconds',
      help: 'Time to write a lead durably to the journal (the answer waits for it)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
  };
  const backlog = async () => summarizeBacklog(await deliveries.backlog(), new Date());
  new Gauge({
    name: 'leadgate_backlog_steps',
    help: 'Delivery steps not done yet (pending or retrying), in the whole journal',
    registers,
    async collect() {
      const { pending, retrying } = await backlog();
      this.set(pending + retrying);
    },
  });
  new Gauge({
    name: 'leadgate_dead_steps',
    help: 'Delivery steps given up (dead): each was listed in an alert e-mail to the agency',
    registers,
    async collect() {
      this.set((await backlog()).dead);
    },
  });
  new Gauge({
    name: 'leadgate_refused_steps',
    help: 'Delivery steps refused for good (an address the destination refuses), in the whole journal',
    registers,
    async collect() {
      this.set((await backlog()).refused);
    },
  });
  new Gauge({
    name: 'leadgate_backlog_oldest_age_seconds',
    help: 'Age of the oldest lead with a step not done yet; 0 when none',
    registers,
    async collect() {
      this.set((await backlog()).oldestAgeSeconds ?? 0);
    },
  });
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The journal's delivery side, counted as it works: leads accepted (or caught as spam) by kind and the time their one
 * durable write took (the answer waits for it), and every step attempt by destination and outcome.
 */
export function measuredDeliveries(deliveries: Deliveries, metrics: Metrics): Deliveries {
  const accept: Deliveries['accept'] = async (input) => {
    const stopTimer = metrics.journalWrite.startTimer();
    const acceptance = await deliveries.accept(input);
    stopTimer();
    if (acceptance.accepted === 'new') {
      (input.spam ? metrics.leadsTrapped : metrics.leadsAccepted).inc({ kind: input.lead.kind });
    }
    return acceptance;
  };
  const settle: Deliveries['settle'] = async (step, outcome, now) => {
    const settled = await deliveries.settle(step, outcome, now);
    metrics.deliveries.inc({ step: step.destination, outcome: outcome.status });
    return settled;
  };
  return overriding(deliveries, { accept, settle });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics on the service's own port, behind a Bearer token: one port to open and route, and
 * Prometheus sends the token natively (`authorization` in its scrape config). A separate port would
 * rely on network rules nobody tests. Without METRICS_TOKEN the route does not exist (404).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.inc({
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    });
  });
  if (!token) return;
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    reply.header('cache-control', 'no-store');
    if (!sameToken(given, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ status: 'unauthorized' });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
