#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx), so `npx leadgate …` works in a fresh checkout with no build step.
// docs/performance.md: after `leadgate build`, the bundle it wrote starts several times faster, and is used as long
// as no source changed since (src/cli/fresh-bundle.js); LEADGATE_BUNDLE=0 always takes the tsx path.
import { freshBundle } from '../src/cli/fresh-bundle.js';
import { runBundle } from '../src/cli/run-bundle.js';

/**
 * The agency's identity file is read as the CLI loads (src/features/site/agency.ts): a mistake in
 * it is one French line naming the line and the field, and exit code 2 (docs/site.md), never a
 * stack trace.
 */
function reportIdentityError(error) {
  if (error?.name !== 'IdentityFileError') throw error;
  process.stderr.write(`Identité de l’agence invalide : ${error.message}\n`);
  process.exit(2);
}

const bundle = process.env.LEADGATE_BUNDLE === '0' ? undefined : freshBundle();
try {
  if (bundle) {
    runBundle(bundle);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/cli/main.ts');
  }
} catch (error) {
  reportIdentityError(error);
}
