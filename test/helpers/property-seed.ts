import fc from 'fast-check';

/*
 * docs/quality.md, « Property tests and their seed »: every fast-check property of the suite runs
 * from one fixed seed, so `npm test` gives the same answer every time; fast-check prints the seed
 * and the shrunk case of a failure. `npm run test:seeds` runs the same properties from other seeds
 * (LEADGATE_PROPERTY_SEED), to find new cases without making the ordinary run depend on luck.
 */
export const FIXED_PROPERTY_SEED = 20261128;

const given = process.env.LEADGATE_PROPERTY_SEED;
const seed = given === undefined || given === '' ? FIXED_PROPERTY_SEED : Number(given);
if (!Number.isSafeInteger(seed)) {
  throw new Error(`LEADGATE_PROPERTY_SEED must be an integer, not ${JSON.stringify(given)}`);
}

fc.configureGlobal({ seed });
