/** Every command that opens the journal says which one first (src/cli/journal-choice.ts). */
export function splitJournalLine(stderr: string): { journal?: string; rest: string } {
  const match = /^(journal : [^\n]*)\n/.exec(stderr);
  return match ? { journal: match[1], rest: stderr.slice(match[0].length) } : { rest: stderr };
}
