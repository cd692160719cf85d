import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A secret in the WEBHOOK_SECRET format, shared by the tests and their receivers. */
export const TEST_WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The event, as the independent `standardwebhooks` package verified and parsed it; else undefined. */
  event: unknown;
  verifyError?: string;
  /** The status this receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The status answered to the next requests (200 by default); `hang` never answers. */
  answer: number | 'hang';
  /** Closes the port (connections refused) until `start`, which listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 that checks every signature with the `standardwebhooks` package
 * (the reference implementation of Standard Webhooks, not leadgate's code): what a tool on the
 * agency's side would do.
 */
export async function startWebhookReceiver(
  options: { secret?: string; extraHeaders?: Record<string, string> } = {},
): Promise<WebhookReceiver> {
  const verifier = new Webhook(options.secret ?? TEST_WEBHOOK_SECRET);
  const sockets = new Set<Socket>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: 200,
    stop: () => stopServer(server, sockets),
    start: () => listen(server, port),
    close: () => stopServer(server, sockets),
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    );
    const entry: ReceivedWebhook = { headers, body, event: undefined, status: 0 };
    try {
      entry.event = verifier.verify(body, headers);
    } catch (error) {
      entry.verifyError = (error as Error).message;
    }
    receiver.received.push(entry);
    if (receiver.answer === 'hang') return;
    entry.status = receiver.answer;
    response.writeHead(receiver.answer, { 'content-type': 'text/plain', ...options.extraHeaders });
    response.end(receiver.answer < 300 ? 'reçu' : `réponse ${receiver.answer}`);
  };
  const server = createServer((request, response) => void handle(request, response));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}/hooks/leads`;
  return receiver;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function stopServer(server: Server, sockets: Set<Socket>): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });
}
