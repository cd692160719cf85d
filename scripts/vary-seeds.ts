// docs/quality.md, « Property tests and their seed »: runs the suite's fast-check properties (every
// test file that imports fast-check) from other seeds than the fixed one `npm test` uses, each seed
// printed before its run so a failure can be replayed with LEADGATE_PROPERTY_SEED=<seed>; the fuzz
// tries 10,000 requests per endpoint and seed (FUZZ_RUNS), five times what `npm test` replays.
// Usage: npm run test:seeds [-- --runs 5] [-- --seed 859857618]
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1' }, seed: { type: 'string' } },
});

const files = readdirSync(join(ROOT, 'test'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
  .map((entry) => join(entry.parentPath, entry.name))
  .filter((file) => /from 'fast-check'/.test(readFileSync(file, 'utf8')))
  .map((file) => relative(ROOT, file))
  .sort();

let failed = 0;
for (let run = 0; run < Number(values.runs); run++) {
  const seed = values.seed ?? String(randomInt(2 ** 31));
  console.log(`LEADGATE_PROPERTY_SEED=${seed}: ${files.join(' ')}`);
  const result = spawnSync(
    join(ROOT, 'node_modules/.bin/vitest'),
    ['run', '--project', 'sqlite', ...files],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { FUZZ_RUNS: '10000', ...process.env, LEADGATE_PROPERTY_SEED: seed },
    },
  );
  if (result.status !== 0) {
    failed++;
    console.log(`failed with LEADGATE_PROPERTY_SEED=${seed}`);
  }
}
process.exit(failed ? 1 : 0);
