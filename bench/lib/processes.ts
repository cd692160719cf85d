import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** A port the kernel just handed out on loopback; free again by the time a server binds it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection: resolves true on any HTTP answer (a 404 is an answer too). */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.once('error', () => resolve(false));
    req.once('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * Every server and build here shares one SITE_URL: it defaults to the port, and `serve` rebuilds
 * dist/ when it changes, which a start on a new port would otherwise do each time.
 */
export const SITE_ENV = { SITE_URL: 'https://agence.example' } as const;

export interface Started {
  child: ChildProcess;
  /** What the server wrote on stdout so far (a start that rebuilt dist/ says so there). */
  stdout(): string;
  /** Milliseconds from spawn to the first HTTP answer. */
  firstAnswerMs: number;
  stop(): Promise<void>;
}

/**
 * Spawns a server and polls `url` every few milliseconds until it answers. The time measured is what
 * an orchestrator restarting the service sees: process start, module loading, store, listen.
 */
export async function startServerProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  url: string,
  {
    captureStdout = false,
    timeoutMs = 60_000,
    cwd,
  }: { captureStdout?: boolean; timeoutMs?: number; cwd?: string } = {},
): Promise<Started> {
  const start = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    // Under load the request logs go to /dev/null: pino still formats and writes each line, but the
    // driver does not spend the shared cores reading them.
    stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitCode: number | null = null;
  child.once('exit', (code) => (exitCode = code ?? -1));

  while (!(await answers(url))) {
    if (exitCode !== null) throw new Error(`${args.join(' ')} exited (${exitCode}): ${stderr}`);
    if (performance.now() - start > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not answer ${url} within ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const firstAnswerMs = performance.now() - start;
  return {
    child,
    firstAnswerMs,
    stdout: () => stdout,
    async stop() {
      if (exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a command to completion; resolves with its stdout, rejects on a non-zero exit. */
export function runToEnd(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}
