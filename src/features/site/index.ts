/** What the other features use of site (docs/architecture.md). */
export { AGENCY } from './agency.ts';
export { servedAgency, servedMailIdentity } from './served-identity.ts';
export { typesetText } from './typeset.ts';
