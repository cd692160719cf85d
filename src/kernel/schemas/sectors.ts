/** The three sectors of spec 2.3 (`sector` of AuditRequest), each with its audit questionnaire. */
export const SECTORS = ['avocats', 'boutiques', 'btp'] as const;

export type Sector = (typeof SECTORS)[number];
