import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { loadConfig } from '../src/kernel/config.ts';
import { createDispatcherFor } from '../src/wiring/dispatcher-setup.ts';
import { createProvider } from '../src/providers/create-provider.ts';
import { createStore } from '../src/wiring/create-store.ts';
import { acceptBurst } from './journal-accept.ts';
import { mailIdentity } from '../src/features/site/mail-identity.ts';

export interface DispatchRound {
  cpuMicrosPerLead: number;
  /** Of which in the kernel (file writes, fdatasync): process.cpuUsage's `system`. */
  systemMicrosPerLead: number;
  leadsPerSecond: number;
}

/**
 * The delivery path alone, in this process: `count` contact leads journaled first, then the
 * dispatcher of `leadgate serve` (outbox, its default concurrency, info logs to /dev/null) delivers
 * them all; CPU time (the thread pool's file writes and fdatasyncs included) and wall time from its
 * start to the last lead seen delivered (polled every 250 ms).
 */
export async function dispatchRound(root: string, count: number): Promise<DispatchRound> {
  const dataDir = join(root, `dispatch-${process.pid}-${Date.now()}`);
  const config = loadConfig({ DATA_DIR: dataDir, MAIL_PROVIDER: 'outbox' });
  const store = await createStore(config);
  const log = pino({ level: 'info' }, pino.destination('/dev/null'));
  try {
    for (let done = 0; done < count; done += 50) await acceptBurst(store);
    const dispatcher = createDispatcherFor(
      config,
      store,
      createProvider(config, store, mailIdentity()),
      log,
    );
    const cpu = process.cpuUsage();
    const started = performance.now();
    dispatcher.start();
    // The backlog's query reads every unfinished step: asked four times a second, not more, so
    // that the measure does not measure itself.
    while ((await store.deliveries.backlog()).some((line) => line.pending + line.retrying > 0)) {
      await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await dispatcher.stop();
    return {
      cpuMicrosPerLead: (used.user + used.system) / count,
      systemMicrosPerLead: used.system / count,
      leadsPerSecond: count / seconds,
    };
  } finally {
    // The outbox's 10,000 files stay in bench/out/ (removed after the next run's last measure):
    // deleting them here made the next round's files ~2 × dearer to create (ext4, mounted `discard`).
    await store.close();
  }
}
