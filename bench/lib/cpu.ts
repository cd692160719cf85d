import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat: 100 on every Linux this runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, read from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

/** Resident set size of a process in bytes, from /proc/<pid>/status. */
export function rssBytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

/** The process and its direct children (nginx's worker under its master), by /proc's children list. */
export function cpuSecondsOfTree(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  const pids = [pid, ...(children ? children.split(' ').map(Number) : [])];
  return pids.reduce((sum, each) => sum + cpuSecondsOf(each), 0);
}

/** Measures the CPU a process (with its children) uses while `work` runs: the share of one core and seconds in all. */
export async function withCpuOf<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: number; wallSeconds: number }> {
  const cpuBefore = cpuSecondsOfTree(pid);
  const wallBefore = performance.now();
  const result = await work();
  return {
    result,
    cpuSeconds: cpuSecondsOfTree(pid) - cpuBefore,
    wallSeconds: (performance.now() - wallBefore) / 1000,
  };
}
