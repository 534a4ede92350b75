import { hmacSha256, toHex, uidFromDigest, utf8 } from '#shared/dicom/hash.ts';

/**
 * The keyed values of de-identification, each an HMAC-SHA256 under the deployment's secret. What is published (the
 * PatientID pseudonym, the UIDs) and what must stay secret (the date shift) come from different keys, so no output
 * value helps to compute the shift.
 */
export type PatientKeys = { pseudonym: string; dateShiftDays: number };

/** A key of its own for one use, derived from the secret (HKDF-Expand style: HMAC(secret, label)). */
function derivedKey(secret: Uint8Array, label: string): Uint8Array {
  return hmacSha256(secret, utf8(`iws-deidentify|${label}`));
}

/** Modified dates (PS3.15 E.3.6): 1 to 10 years back, the same for every study of a patient at one hospital. */
export const DATE_SHIFT_DAYS = { min: 365, span: 3285 } as const;

export function patientKeys(secret: string, hospitalId: string, patientID: string): PatientKeys {
  const key = utf8(secret);
  // The pseudonym's derivation is unchanged since the first release, so a patient keeps one alias across uploads.
  const patientDigest = hmacSha256(key, utf8(`${hospitalId}|patient|${patientID}`));
  const shiftDigest = hmacSha256(derivedKey(key, 'date-shift/v1'), utf8(`${hospitalId}|${patientID}`));
  const word = new DataView(shiftDigest.buffer, shiftDigest.byteOffset, 4).getUint32(0);
  return {
    pseudonym: `IWS-${toHex(patientDigest).slice(0, 16).toUpperCase()}`,
    dateShiftDays: -(DATE_SHIFT_DAYS.min + (word % DATE_SHIFT_DAYS.span)),
  };
}

/** The replacement of one UID: the same for a UID of one hospital in every file and on every upload. */
export function replacementUid(secret: string, hospitalId: string, uid: string, root = '2.25.'): string {
  return uidFromDigest(hmacSha256(utf8(secret), utf8(`${hospitalId}|uid|${uid}`)), root);
}
