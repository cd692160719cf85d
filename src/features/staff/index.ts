/** What the other features use of staff (docs/architecture.md). */
export { field, formAddress, formAlert, formDay, formList, formText } from './form-controls.ts';
export { html } from './html.ts';
export type { HtmlValue, SafeHtml } from './html.ts';
export type { WorkspaceContext } from './workspace-context.ts';
export { cell, csrfField, parisTime, scrollingTable, sendWorkspacePage } from './workspace-page.ts';
export { refusalPage } from './workspace-guard.ts';
export { sameOriginPath } from './workspace-guard.ts';
export { checkProof, proofField, proofProblem } from './reauthentication.ts';
