/**
 * Runs the CommonJS bundle at `url` (a file URL) with V8's code cache, written next to it
 * `writeCacheAfterMs` after the start when there was none or V8 rejected it.
 */
export function runBundle(url: URL, writeCacheAfterMs?: number): void;
