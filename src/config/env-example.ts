import { variableDocs } from './env-schema.ts';

const HEADER = `# leadgate configuration, generated from src/config/env-schema.ts by
#   npx leadgate config example > .env.example
# Every variable is optional (except what the chosen MAIL_PROVIDER needs): without any, \`npm start\`
# serves the site and the API on http://localhost:3000 with a SQLite journal and a mail outbox in ./data.
# An empty value means the default. The server reads the environment only; load this file with
#   set -a; . ./.env; set +a; npm start
# or, under systemd, EnvironmentFile=/etc/leadgate/leadgate.env (values are single-quoted for both).
`;

/** One value in single quotes: literal for sh, and stripped of its quotes by systemd's EnvironmentFile. */
function quoted(value: string): string {
  if (value.includes("'") || /[\n\\]/.test(value)) {
    throw new Error(`cannot quote ${JSON.stringify(value)} for both sh and systemd`);
  }
  return `'${value}'`;
}

/** The text of .env.example: every variable with its description and default (blank when unset). */
export function renderEnvExample(): string {
  const blocks = variableDocs().map((variable) => {
    const lines = [`# ${variable.description.replaceAll('`', '')}`];
    for (const example of variable.examples) lines.push(`# e.g. ${example}`);
    // A default computed from another variable (SITE_URL from PORT) is said, not written.
    if (variable.default?.includes('$')) lines.push(`# Default: ${variable.default}`);
    const value =
      variable.default === undefined || variable.default.includes('$')
        ? ''
        : quoted(variable.default);
    lines.push(`${variable.name}=${value}`);
    return lines.join('\n');
  });
  return `${HEADER}\n${blocks.join('\n\n')}\n`;
}
