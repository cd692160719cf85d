import { execFile } from 'node:child_process';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `leadgate …` as an operator runs it: a child process, configured by `env` only. Compiling the
 * sources at start (tsx) takes seconds, and tens of seconds on a busy two-core machine: the bound
 * only stops a command that hangs.
 */
export function runLeadgate(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/leadgate.js', ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
