import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { InvalidConfigError } from './read-env.ts';

/**
 * `leadgate --env-file FILE <command>` (docs/operations.md, « Une commande sur le bon journal »):
 * the service's env file read as Node's own `--env-file` reads it (quotes removed, bare values kept
 * whole), so a command gets the settings the service runs with. What the environment already sets
 * wins, as with systemd's command-line variables over its EnvironmentFile=.
 */
export function loadEnvFile(env: Record<string, string | undefined>, file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new InvalidConfigError(`--env-file ${file} : fichier illisible (${code})`);
  }
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] === undefined) env[name] = value;
  }
}
