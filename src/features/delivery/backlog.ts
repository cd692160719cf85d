import type { BacklogLine } from '../../kernel/lead/deliveries.ts';

export interface BacklogSummary {
  pending: number;
  retrying: number;
  dead: number;
  /** Steps refused for good (docs/delivery.md, « Steps and destinations »). */
  refused: number;
  /** Seconds since the oldest lead with an unfinished step arrived; null when there is none. */
  oldestAgeSeconds: number | null;
}

/** Totals over every destination, as `leads status` and the serve log line report them. */
export function summarizeBacklog(lines: readonly BacklogLine[], now: Date): BacklogSummary {
  const oldest = lines
    .map((line) => line.oldestReceivedAt?.getTime())
    .filter((time): time is number => time !== undefined);
  return {
    pending: sum(lines, 'pending'),
    retrying: sum(lines, 'retrying'),
    dead: sum(lines, 'dead'),
    refused: sum(lines, 'refused'),
    oldestAgeSeconds:
      oldest.length > 0 ? Math.round((now.getTime() - Math.min(...oldest)) / 1000) : null,
  };
}

function sum(
  lines: readonly BacklogLine[],
  field: 'pending' | 'retrying' | 'dead' | 'refused',
): number {
  return lines.reduce((total, line) => total + line[field], 0);
}
