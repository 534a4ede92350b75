/** The words of the audit trail. */

/** How the audited request ended: done, refused (not found, not allowed), or failed on our side. */
export const AUDIT_OUTCOMES = ['SUCCESS', 'DENIED', 'FAILURE'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
