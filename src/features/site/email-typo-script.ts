import { build } from 'esbuild';
import { EMAIL_TYPO_SOURCE } from '../intake/index.ts';

/**
 * docs/site.md, « Vouliez-vous dire … ? »: the intake's own suggestion (the function and list of
 * its `email_typo` warning), bundled for the browser as the global `leadgateEmailTypo`, which the
 * build puts in front of forms.js: one source, no copy. esbuild is loaded only by a build (build.ts
 * is itself loaded on demand), and statically: the CLI bundle keeps esbuild external, where a dynamic
 * `import()` cannot run (src/cli/bundle-cli.ts).
 */
export async function emailTypoScript(): Promise<string> {
  const result = await build({
    entryPoints: [EMAIL_TYPO_SOURCE],
    bundle: true,
    format: 'iife',
    globalName: 'leadgateEmailTypo',
    minify: true,
    legalComments: 'none',
    target: 'es2015',
    charset: 'utf8',
    write: false,
  });
  return result.outputFiles[0]!.text;
}
