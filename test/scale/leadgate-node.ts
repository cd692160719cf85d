import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { freePort } from '../helpers/postgres-cluster.ts';

/** docs/deployment.md: one real `leadgate serve` process, as a node behind a load balancer runs it. */
export interface LeadgateNode {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the process wrote, for assertions and for failure messages. */
  output(): string;
  /** Names of the e-mails its outbox provider wrote. */
  outbox(): string[];
  stop(): Promise<void>;
}

const BIN = resolve(import.meta.dirname, '../../bin/leadgate.js');

export async function startNode(env: Record<string, string>): Promise<LeadgateNode> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-node-'));
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MAIL_PROVIDER: 'outbox',
      LOG_LEVEL: 'warn',
      // Each node pre-renders the site for its own SITE_URL: never into the checkout's shared dist/.
      DIST_DIR: join(dataDir, 'dist'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const node: LeadgateNode = {
    url,
    dataDir,
    process: child,
    output: () => output,
    outbox() {
      try {
        return readdirSync(join(dataDir, 'outbox')).filter((name) => name.endsWith('.eml'));
      } catch {
        return [];
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await waitUntilLive(node);
  return node;
}

async function waitUntilLive(node: LeadgateNode, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (node.process.exitCode !== null) {
      throw new Error(`leadgate exited with ${node.process.exitCode}:\n${node.output()}`);
    }
    try {
      if ((await fetch(`${node.url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  await node.stop();
  throw new Error(`leadgate did not answer within ${timeoutMs} ms:\n${node.output()}`);
}

/** Two nodes on the database `env.DATABASE_URL` names, and that journal opened to read what they did. */
export interface TwoNodes {
  nodes: LeadgateNode[];
  journal: Store;
  stop(): Promise<void>;
}

export async function startTwoNodes(env: Record<string, string>): Promise<TwoNodes> {
  // One after the other: each pre-renders its site at start, and this machine is shared.
  const nodes = [await startNode(env), await startNode(env)];
  const journal = await createStore(loadConfig({ DATABASE_URL: env.DATABASE_URL }));
  return {
    nodes,
    journal,
    async stop() {
      await journal.close();
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

export function postJson(
  node: LeadgateNode,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${node.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A leadgate command running as its own process (`dispatch`…), with everything it wrote so far. */
export interface LeadgateProcess {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export function spawnLeadgate(args: string[], env: Record<string, string>): LeadgateProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done(code));
  });
  return { process: child, output: () => output, exited };
}

/** Runs a one-shot leadgate command (`db migrate`, `leads replay`…) to its end. */
export function runLeadgate(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; errors: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, output, errors }));
  });
}
