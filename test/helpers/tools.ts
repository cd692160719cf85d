import { execFileSync } from 'node:child_process';

/**
 * docs/quality.md: a test that needs a tool a fresh machine may lack (Chromium, Java, PostgreSQL) prints a
 * clear skip line without it, and fails instead under CI=true, where .ci/run installs the tool.
 * Use as `describe.skipIf(!hasTool('java', ['-version']))(...)`.
 */
export function hasTool(command: string, args: string[] = ['--version']): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    if (process.env.CI === 'true') {
      throw new Error(`${command} is required under CI=true: .ci/run must install it`);
    }
    console.warn(`SKIP: ${command} is not installed here; the tests that need it are skipped`);
    return false;
  }
}
