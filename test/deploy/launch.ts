import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** A process started as a launcher starts leadgate (systemd, Docker, a shell), watched from outside. */
export interface Launched {
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

export function launch(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string; uid?: number; gid?: number },
): Launched {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return { process: child, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Resolves once `url`/healthz answers 200, or with the exit when the process stops first: a refused
 * start is an answer too. Bounded only against a hang (tsx compiles at start: seconds when loaded).
 */
export async function healthyOrExited(
  launched: Launched,
  url: string,
  timeoutMs = 90_000,
): Promise<'healthy' | { code: number | null; signal: NodeJS.Signals | null }> {
  const deadline = Date.now() + timeoutMs;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void launched.exited.then((result) => (exit = result));
  for (;;) {
    if (exit) return exit;
    try {
      if ((await fetch(`${url}/healthz`)).ok) return 'healthy';
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      launched.process.kill('SIGKILL');
      throw new Error(`no answer and no exit: ${launched.stdout()}${launched.stderr()}`);
    }
    await sleep(100);
  }
}

/** One line, no stack trace: what an operator (and journald) gets from a refused start. */
export function expectOneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line !== '');
  if (lines.length !== 1 || /^\s+at /m.test(stderr)) {
    throw new Error(`expected one line on stderr, got:\n${stderr}`);
  }
  return lines[0]!;
}
