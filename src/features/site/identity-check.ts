import { relative } from 'node:path';
import { IDENTITY, sampleValuesLeft } from './agency.ts';

/** The identity file as the operator named it: `site/agency.yaml`, or AGENCY_FILE. */
export function identityFileName(file = IDENTITY.file): string {
  const name = relative(process.cwd(), file);
  return name && !name.startsWith('..') ? name : file;
}

export class SampleIdentityError extends Error {}

export interface IdentityPolicy {
  /** NODE_ENV=production: a sample value left in the identity file stops the build. */
  production: boolean;
  /** `--allow-sample-identity` or ALLOW_SAMPLE_IDENTITY=1: publish the samples anyway (a demo). */
  allowSamples: boolean;
}

export function identityPolicyFromEnv(env: NodeJS.ProcessEnv, allowFlag = false): IdentityPolicy {
  return {
    production: env.NODE_ENV === 'production',
    allowSamples: allowFlag || env.ALLOW_SAMPLE_IDENTITY === '1',
  };
}

/**
 * One warning line per sample value (`!exemple`) still in the identity file (docs/site.md); in production, without an explicit
 * allowance, a SampleIdentityError instead: a public site must not show an invented SIRET.
 */
export function checkIdentity(policy: IdentityPolicy, samples = sampleValuesLeft()): string[] {
  if (samples.length === 0) return [];
  if (policy.production && !policy.allowSamples) {
    throw new SampleIdentityError(
      `${identityFileName()} still holds ${samples.length} sample values (first: ${samples[0]}); replace them, or build with --allow-sample-identity (ALLOW_SAMPLE_IDENTITY=1) to publish them anyway`,
    );
  }
  return samples.map(
    (sample) => `warning: sample identity value in ${identityFileName()}, ${sample}`,
  );
}
