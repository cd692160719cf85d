import { relative } from 'node:path';
import { IDENTITY, sampleValuesLeft } from './agency.ts';
import { contentDirName, samplePages } from './sample-content.ts';

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
 * allowance, a SampleIdentityError instead, which also names the sample pages (`sample: true`) of the content folder: a public site
 * must not show an invented SIRET, nor invented clients' results.
 */
export function checkIdentity(
  policy: IdentityPolicy,
  samples = sampleValuesLeft(),
  contentDir?: string,
): string[] {
  const refused = policy.production && !policy.allowSamples;
  // Read only when it can refuse: a start in development stays fast (docs/performance.md).
  const pages = refused && contentDir ? samplePages(contentDir) : [];
  if (refused && (samples.length > 0 || pages.length > 0)) {
    const parts = [
      ...(samples.length > 0
        ? [
            `${identityFileName()} contient encore ${samples.length} valeurs d’exemple (!exemple ; la première : ${samples[0]})`,
          ]
        : []),
      ...(pages.length > 0 && contentDir
        ? [
            `${contentDirName(contentDir)} publie ${pages.length} pages d’exemple (sample: true) : ${pages.join(', ')}`,
          ]
        : []),
    ];
    throw new SampleIdentityError(
      `${parts.join(' ; ')} ; remplacez-les (votre propre contenu : CONTENT_DIR), ou publiez-les exprès avec --allow-sample-identity (ALLOW_SAMPLE_IDENTITY=1)`,
    );
  }
  return samples.map(
    (sample) => `warning: sample identity value in ${identityFileName()}, ${sample}`,
  );
}
