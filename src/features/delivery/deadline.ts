import { UnreachableError } from '../../kernel/lead/errors.ts';

/** Destinations receive an AbortSignal, but one that ignores it must not hold the caller past the deadline. */
export async function withDeadline<T>(
  ms: number,
  task: (signal: AbortSignal) => Promise<T>,
  /** What the error names as the wait, when the deadline is a share of a longer one. */
  wait = `${ms} ms`,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new UnreachableError(`no answer within ${wait}`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([task(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** One line for the journal: the error, and its cause when there is one. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name}: ${error.message}${cause}`.slice(0, 2000);
}
