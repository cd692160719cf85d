import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Brevo's published description, kept in the repository as published (docs/spec/brevo/README.md). */
export const BREVO_SWAGGER = resolve(repoRoot, 'docs/spec/brevo/brevo-api-v3.swagger.yaml');

/** What Prism answered to one of our calls; `violations` is its `sl-violations` header, if any. */
export interface PrismExchange {
  method: string;
  path: string;
  status: number;
  violations: string | undefined;
}

/**
 * Starts `prism mock` on Brevo's description (Prism serves the routes at the root, ignoring
 * basePath) behind a recording proxy, so a test sees every `sl-violations` header Prism sets,
 * warnings on 2xx answers included. Point BREVO_API_URL at `url`.
 */
export async function startPrismBrevo() {
  const prismPort = await freePort();
  const prism = spawn(
    resolve(repoRoot, 'node_modules/.bin/prism'),
    ['mock', BREVO_SWAGGER, '-h', '127.0.0.1', '-p', String(prismPort)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  prism.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  prism.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitForPort(prismPort, prism, 45_000);
  } catch (error) {
    prism.kill();
    throw new Error(`prism did not start: ${(error as Error).message}\n${output.slice(-2000)}`);
  }

  const exchanges: PrismExchange[] = [];
  const proxy = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: '127.0.0.1',
        port: prismPort,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const violations = answer.headers['sl-violations'];
        exchanges.push({
          method: incoming.method ?? '',
          path: incoming.url ?? '',
          status: answer.statusCode ?? 0,
          violations: Array.isArray(violations) ? violations.join(' ') : violations,
        });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));

  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    exchanges,
    async close() {
      await closeServer(proxy);
      await stop(prism);
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`nothing listening on port ${port} after ${timeoutMs} ms`);
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export function brevoSwaggerPresent(): boolean {
  if (existsSync(BREVO_SWAGGER)) return true;
  // docs/quality.md: what a test needs is there under CI=true, or the run fails.
  if (process.env.CI === 'true') throw new Error(`${BREVO_SWAGGER} is required under CI=true`);
  console.warn(`SKIP: ${BREVO_SWAGGER} is absent; the Prism contract tests are skipped`);
  return false;
}
