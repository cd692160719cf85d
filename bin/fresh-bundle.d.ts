/** URL of the bundle written by `leadgate build`, if none of its inputs changed since. */
export function freshBundle(): URL | undefined;
