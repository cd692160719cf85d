import { join } from 'node:path';
import type { Config } from '../config.ts';

/** The sample domain of the defaults (RFC 2606): nobody receives mail there. */
const SAMPLE_DOMAIN = /@[^@>]*\.example>?$/i;

/**
 * docs/deployment.md ("Production"): with NODE_ENV=production, the settings that would start a
 * server which takes leads and tells nobody, each said in words the operator acts on. Empty when
 * the start may go on. The sample identity of the site is checked by the caller
 * (src/features/site/identity-check.ts).
 */
export function productionProblems(config: Config): string[] {
  if (!config.production) return [];
  const problems: string[] = [];
  if (SAMPLE_DOMAIN.test(config.mail.from)) {
    problems.push(
      `MAIL_FROM est l’adresse d’exemple « ${config.mail.from} » : mettez l’expéditeur de l’agence`,
    );
  }
  if (SAMPLE_DOMAIN.test(config.mail.agencyEmail)) {
    problems.push(
      `AGENCY_EMAIL est l’adresse d’exemple « ${config.mail.agencyEmail} » : mettez l’adresse qui reçoit les demandes`,
    );
  }
  if (!config.mail.providerChosen) {
    problems.push(
      `MAIL_PROVIDER n’est pas choisi : l’outbox par défaut écrit les e-mails dans ${outboxDir(config)} et personne ne les reçoit ; choisissez smtp ou brevo, ou MAIL_PROVIDER=outbox exprès`,
    );
  }
  return problems;
}

/** Said at every start of a process that delivers with the outbox: where the e-mails go, and that nobody gets them. */
export function outboxNotice(config: Config): string | undefined {
  if (config.mail.provider !== 'outbox') return undefined;
  return `attention : MAIL_PROVIDER=outbox, les e-mails (confirmations, notifications à ${config.mail.agencyEmail}) sont écrits en fichiers .eml dans ${outboxDir(config)} et ne partent vers personne`;
}

function outboxDir(config: Config): string {
  return join(config.dataDir, 'outbox');
}
