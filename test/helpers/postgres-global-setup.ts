import type { TestProject } from 'vitest/node';
import { postgresBinDir, startPostgresCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test PostgreSQL server; empty when none is available (tests skip). */
    postgresUrl: string;
  }
}

/**
 * docs/deployment.md: one private PostgreSQL cluster for the whole run, shared by every test worker; each test
 * app gets its own database in it (test/helpers/postgres-databases.ts). LEADGATE_TEST_POSTGRES_URL
 * points the suite at an existing server instead.
 */
export default async function setup(project: TestProject) {
  const external = process.env.LEADGATE_TEST_POSTGRES_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return;
  }
  const binDir = postgresBinDir();
  if (!binDir) {
    if (process.env.CI === 'true') {
      throw new Error('PostgreSQL is required under CI=true: .ci/run must install it');
    }
    console.warn('SKIP: PostgreSQL is not installed here; the PostgreSQL tests are skipped');
    project.provide('postgresUrl', '');
    return;
  }
  const cluster = await startPostgresCluster(binDir);
  project.provide('postgresUrl', cluster.url());
  return () => cluster.destroy();
}
