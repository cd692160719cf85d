import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  email: Email;
  /** Whatever `onArrival` returned while the message was being received (before the answer). */
  observed: unknown;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1, port 0: what the SMTP provider sends
 * arrives here and is parsed by a real MIME parser. No mock of SMTP (STYLE.md).
 * `refuseRecipients` answers 550 to every RCPT TO, as a server refusing the mail would;
 * `recipientCode` answers RCPT TO with the code it returns for that address (451: try again later).
 */
export async function startSmtpSink(
  options: {
    refuseRecipients?: boolean;
    recipientCode?: (address: string) => number | undefined;
    onArrival?: () => Promise<unknown>;
  } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.refuseRecipients ? 550 : options.recipientCode?.(address.address);
      if (code === undefined) return callback();
      callback(Object.assign(new Error('Boîte aux lettres indisponible'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const observed = await options.onArrival?.();
        received.push({
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          email: await PostalMime.parse(Buffer.concat(chunks)),
          observed,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback address where nothing listens: connecting is refused at once. */
export async function unreachableSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}
