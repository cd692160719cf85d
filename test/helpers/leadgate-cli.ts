import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.ts';
import { splitJournalLine } from './journal-line.ts';

export interface CliRun {
  code: number;
  stdout: string;
  /** stderr after the journal line. */
  stderr: string;
  /** The first line of stderr when it names the journal the command opened (docs/operations.md). */
  journal?: string;
}

function collected(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * `leadgate …` in this process: the same commands, error lines and exit codes as the executable
 * (src/cli/run-cli.ts is what bin/leadgate.js runs), configured by `env` only, without compiling
 * the sources again in a child. What needs a process of its own (several processes on one journal,
 * a crash, the identity file read at load, the executable itself) uses test/scale/leadgate-node.ts.
 */
export async function runLeadgate(args: string[], env: Record<string, string>): Promise<CliRun> {
  const stdout = collected();
  const stderr = collected();
  const code = await runCli(['node', 'leadgate', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdout: stdout.stream,
    stderr: stderr.stream,
    exitCode: 0,
  });
  // PassThrough delivers its chunks on the next ticks.
  await new Promise((resolve) => setImmediate(resolve));
  const { journal, rest } = splitJournalLine(stderr.text());
  return { code, stdout: stdout.text(), stderr: rest, ...(journal && { journal }) };
}
