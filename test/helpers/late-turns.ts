import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the event loop's turns are timed, in milliseconds. */
const TURN_MS = 10;

/**
 * docs/quality.md, « Waits sized for a loaded machine »: how late this process got to its turns
 * from now on (Node's event-loop delay, the machine's scheduling included). Node records each
 * interval between its timer's turns, late or not: what exceeds `TURN_MS` was waited for.
 */
export function watchTurns() {
  const turns = monitorEventLoopDelay({ resolution: TURN_MS });
  turns.enable();
  return {
    /** The longest wait for one turn, in milliseconds. */
    longestMs: () => Math.max(0, turns.max / 1e6 - TURN_MS),
    /** Every wait for a turn, summed, in milliseconds. */
    totalMs: () => (turns.count === 0 ? 0 : (turns.mean / 1e6 - TURN_MS) * turns.count),
    stop: () => turns.disable(),
  };
}
