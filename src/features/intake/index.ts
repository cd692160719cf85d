/** What the other features use of intake (docs/architecture.md). */
export { greeting, signature } from './confirmation-email.ts';
export type { BotTrap } from './forms/bot-trap.ts';
export { hasTokenSlot, liveFormPage } from './forms/live-form-page.ts';
export { newLeadSteps } from './new-lead-steps.ts';
export type { OptInSettings } from './new-lead-steps.ts';
export { workspaceLeadUrl } from './notification-email.ts';
export { EMAIL_TYPO_SOURCE } from './email-typo.ts';
