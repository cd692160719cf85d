/**
 * Issue 4: which e-mails of a lead a provider has already accepted, so that a re-delivery
 * (`leads replay`, a retried request) sends only the ones still missing: never a second confirmation.
 */
export interface Handoffs {
  /** Roles (`confirmation`, `notification`) already handed over for this lead. */
  handedOver(leadId: string): Promise<string[]>;
  record(leadId: string, role: string, at: Date): Promise<void>;
}
