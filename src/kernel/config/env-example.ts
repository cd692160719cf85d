import { variableDocs, type EnvName } from './env-schema.ts';

/** Who reads the file: a shell or systemd (`.env.example`), or systemd and Docker alike (deploy/). */
export type EnvExampleFormat = 'sh' | 'env-file';

const HEADERS: Record<EnvExampleFormat, string> = {
  sh: `# leadgate configuration, generated from src/kernel/config/env-schema.ts by
#   node bin/leadgate.js config example > .env.example
# Every variable is optional (except what the chosen MAIL_PROVIDER needs): without any, \`npm start\`
# serves the site and the API on http://localhost:3000 with a SQLite journal and a mail outbox in ./data.
# An empty value means the default. The server reads the environment only; load this file with
#   set -a; . ./.env; set +a; npm start
# Values are single-quoted for sh. Under systemd or Docker, use deploy/leadgate.env.example instead.
`,
  'env-file': `# leadgate settings for deploy/leadgate.service (EnvironmentFile=/etc/leadgate/leadgate.env) and
# for \`docker run --env-file\`; generated from src/kernel/config/env-schema.ts by
#   node bin/leadgate.js config example --env-file > deploy/leadgate.env.example
# Values are single-quoted: systemd, a POSIX shell (set -a; . file), \`leadgate --env-file\` and Docker
# (leadgate drops the quotes Docker keeps) read them alike; quote what you write (a MAIL_FROM with
# spaces and <…>). DATA_DIR, DIST_DIR and NODE_ENV are absent: the unit and the image set them
# (docs/deployment.md). With NODE_ENV=production the
# start is refused until MAIL_FROM and AGENCY_EMAIL are the agency's own and MAIL_PROVIDER is chosen.
# An empty value means the default.
`,
};

/**
 * Set by deploy/leadgate.service and the Dockerfile: the env file must not fight them. HOST too: the
 * image listens on `0.0.0.0` inside its container, a systemd service on this machine only (the
 * default) behind its reverse proxy; one env file serves both.
 */
const SET_BY_THE_LAUNCHER: readonly EnvName[] = ['DATA_DIR', 'DIST_DIR', 'NODE_ENV', 'HOST'];

/**
 * One value in single quotes: literal for sh, stripped of its quotes by systemd's EnvironmentFile and
 * Node's --env-file; Docker's --env-file keeps them, and leadgate reads a value wholly in one pair of
 * quotes without them (src/config/read-env.ts), so one file serves every launcher.
 */
function quoted(value: string): string {
  if (value.includes("'") || /[\n\\]/.test(value)) {
    throw new Error(`cannot quote ${JSON.stringify(value)} for both sh and systemd`);
  }
  return `'${value}'`;
}

/** The text of .env.example: every variable with its description and default (blank when unset). */
export function renderEnvExample(format: EnvExampleFormat = 'sh'): string {
  const variables = variableDocs().filter(
    (variable) => format === 'sh' || !SET_BY_THE_LAUNCHER.includes(variable.name),
  );
  const blocks = variables.map((variable) => {
    const lines = [`# ${variable.description.replaceAll('`', '')}`];
    for (const example of variable.examples) lines.push(`# e.g. ${example}`);
    // A default computed from another variable (SITE_URL from PORT), or one the operator is meant
    // to choose (MAIL_PROVIDER), is said, not written.
    if (variable.default !== undefined && variable.written === '') {
      lines.push(`# Default: ${variable.default}`);
    }
    const value = variable.written === '' ? '' : quoted(variable.written);
    lines.push(`${variable.name}=${value}`);
    return lines.join('\n');
  });
  return `${HEADERS[format]}\n${blocks.join('\n\n')}\n`;
}
