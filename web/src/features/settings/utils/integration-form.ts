import { isAeTitle, isSourceAddress, QUIET_SECONDS } from '#shared/schemas/api/integrations.ts';

/** The "new DICOM node" form as typed: addresses one per line or comma-separated. */
export type NodeDraft = { name: string; teamId: string; aeTitle: string; addresses: string; quietSeconds: string };
/** A new DICOMweb client: no team reads the whole hospital and may only read (docs/dicom-intake.md#team-bound-clients). */
export type ClientDraft = { name: string; teamId: string; read: boolean; write: boolean; quietSeconds: string };

export const EMPTY_NODE: NodeDraft = { name: '', teamId: '', aeTitle: '', addresses: '', quietSeconds: '' };
export const EMPTY_CLIENT: ClientDraft = { name: '', teamId: '', read: true, write: true, quietSeconds: '' };

export function addressList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}

function quietError(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= QUIET_SECONDS.min && n <= QUIET_SECONDS.max
    ? undefined
    : `Between ${QUIET_SECONDS.min} and ${QUIET_SECONDS.max} seconds`;
}

/** Field errors of a new DICOMweb client (the schema's rules, in the form's words). */
export function clientErrors(draft: ClientDraft): Partial<Record<keyof ClientDraft, string>> {
  const errors: Partial<Record<keyof ClientDraft, string>> = {};
  if (!draft.name.trim()) errors.name = 'Required';
  if (!draft.read && !draft.write) errors.read = 'Choose read, write or both';
  if (draft.write && !draft.teamId) errors.teamId = 'A client that writes needs a team';
  const quiet = quietError(draft.quietSeconds);
  if (quiet) errors.quietSeconds = quiet;
  return errors;
}

/** The create body's scopes and team of a DICOMweb client draft. */
export function clientAccessOf(draft: ClientDraft): { scopes: ('read' | 'write')[]; teamId?: string } {
  const scopes = [...(draft.read ? (['read'] as const) : []), ...(draft.write ? (['write'] as const) : [])];
  return { scopes, ...(draft.teamId ? { teamId: draft.teamId } : {}) };
}

/** Field errors of a new DICOM node. */
export function nodeErrors(draft: NodeDraft): Partial<Record<keyof NodeDraft, string>> {
  const errors: Partial<Record<keyof NodeDraft, string>> = {};
  if (!draft.name.trim()) errors.name = 'Required';
  if (!draft.teamId) errors.teamId = 'Required';
  if (!isAeTitle(draft.aeTitle)) errors.aeTitle = draft.aeTitle ? 'Invalid AE title' : 'Required';
  const addresses = addressList(draft.addresses);
  if (addresses.length === 0) errors.addresses = 'Required';
  else if (!addresses.every(isSourceAddress)) errors.addresses = 'Invalid address';
  const quiet = quietError(draft.quietSeconds);
  if (quiet) errors.quietSeconds = quiet;
  return errors;
}

export function quietSecondsOf(text: string): { quietSeconds?: number } {
  return text.trim() === '' ? {} : { quietSeconds: Number(text) };
}
