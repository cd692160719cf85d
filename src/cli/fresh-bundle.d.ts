/** URL of the bundle `leadgate build` wrote into `cache` (a folder's URL), if none of its inputs changed since. */
export function freshBundle(cache?: URL): URL | undefined;
