import { pino } from 'pino';
import { loggerOptions } from '../src/kernel/observability/logging.ts';

export interface LogLinesRound {
  /** CPU (user + system) per lead for its three lines, the writes to /dev/null included. */
  cpuMicrosPerLead: number;
}

const LEAD_ID = '01a21475-5c8d-7fce-8783-e6464e937cf6';
const REQUEST_ID = '0ec8cd93-9d4a-4d00-a26f-4865589e9d67';

/**
 * The lines a contact lead writes at `info` in `leadgate serve` (docs/operations.md): the request's
 * (Fastify's child logger with its id, then the lead's id bound), and one per delivered e-mail
 * (the step's child logger). Through the server's own logger options (masking formatter and hooks,
 * one configured secret) to /dev/null, written synchronously as pino writes to stdout.
 */
export function logLinesRound(leads: number): LogLinesRound {
  const options = loggerOptions({ logLevel: 'info', secrets: ['agence-Cle-7f3b9c2e'] });
  const root = pino(options, pino.destination({ dest: '/dev/null', sync: true }));
  const req = { method: 'POST', url: '/api/contact', ip: '127.0.0.1' };
  const cpu = process.cpuUsage();
  for (let lead = 0; lead < leads; lead++) {
    const requestLog = root.child({ reqId: REQUEST_ID }).child({ leadId: LEAD_ID });
    requestLog.info({ req, res: { statusCode: 200 }, responseTime: 4.2 }, 'request completed');
    for (const role of ['agency-notification', 'confirmation-email']) {
      const detail = `<${LEAD_ID}.${role}@agence.example>`;
      const stepLog = root.child({ leadId: LEAD_ID, destination: role });
      stepLog.info({ attempt: 1, detail }, 'delivery: step done');
    }
  }
  const used = process.cpuUsage(cpu);
  return { cpuMicrosPerLead: (used.user + used.system) / leads };
}
