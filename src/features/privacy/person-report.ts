import type { PersonFile } from './journal.ts';

/**
 * RGPD art. 15 and 20: everything the journal keeps of an address, as JSON (a structured, commonly
 * used format), the same for `leadgate people show`, the access e-mail and the workspace's download.
 */
export function personReport(address: string, file: PersonFile): string {
  return JSON.stringify({ address, ...file }, null, 2);
}
