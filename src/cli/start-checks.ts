import {
  checkIdentity,
  identityPolicyFromEnv,
  SampleIdentityError,
} from '../features/site/identity-check.ts';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { outboxNotice, productionProblems } from '../kernel/config/production-checks.ts';
import { assertDataDirWritable } from '../kernel/config/startup-checks.ts';

/**
 * docs/deployment.md ("Production"): what every process that delivers leads checks before doing
 * anything (no site build, no migration): in production, the site's sample identity, `.example`
 * addresses and an outbox nobody chose, refused together in one line (exit 2 in main.ts); then a
 * DATA_DIR it cannot write.
 */
export function refuseMisleadingStart(config: Config, env: NodeJS.ProcessEnv): void {
  const problems = productionProblems(config);
  try {
    // The policy reads NODE_ENV and ALLOW_SAMPLE_IDENTITY, as `leadgate build` does.
    checkIdentity(identityPolicyFromEnv(env));
  } catch (error) {
    if (!(error instanceof SampleIdentityError)) throw error;
    problems.unshift(error.message);
  }
  if (problems.length > 0) {
    throw new InvalidConfigError(
      `NODE_ENV=production refuse de démarrer : ${problems.join(' ; ')}`,
    );
  }
  assertDataDirWritable(config);
}

/** `serve` and `dispatch`, once every check passed: with the outbox, one line saying where the e-mails go. */
export function sayWhereMailGoes(config: Config, warn: (line: string) => void): void {
  const notice = outboxNotice(config);
  if (notice) warn(notice);
}
