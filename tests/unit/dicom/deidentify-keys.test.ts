import { describe, expect, it } from 'vitest';
import { deidentifyDicom, type DeidentifyContext } from '#shared/dicom/deidentify/index.ts';
import { DATE_SHIFT_DAYS } from '#shared/dicom/deidentify/keys.ts';
import { parseDicom } from '#shared/dicom/parse.ts';
import { TAG, parserKey } from '#shared/dicom/tags.ts';
import { AnonymizationOptionsSchema } from '#shared/schemas/api/datasets.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';

const context: DeidentifyContext = {
  secret: 'keys-secret',
  hospitalId: 'northside',
  options: AnonymizationOptionsSchema.parse({ retainLongitudinalDates: true }),
};
const STUDY_DATE = '20240303';

const days = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8))) / 86_400_000;

function deidentifiedPatient(patientID: string, instance = 1) {
  const bytes = buildDicom({
    extra: [
      { tag: TAG.PatientID, vr: 'LO', value: patientID },
      { tag: TAG.StudyDate, vr: 'DA', value: STUDY_DATE },
      { tag: TAG.SOPInstanceUID, vr: 'UI', value: `1.2.826.0.1.3680043.9.9999.1.${instance}` },
    ],
  });
  const dataSet = parseDicom(deidentifyDicom(bytes, context).bytes).dataSet;
  const text = (tag: string) => dataSet.string(parserKey(tag)) ?? '';
  return {
    shift: days(text(TAG.StudyDate)) - days(STUDY_DATE),
    pseudonym: text(TAG.PatientID),
    uids: [TAG.StudyInstanceUID, TAG.SeriesInstanceUID, TAG.SOPInstanceUID].map(text),
  };
}

/** The shift as the first release computed it, from the first two bytes of a published digest. */
const shiftFromDigestBytes = (first: number, second: number) =>
  -(DATE_SHIFT_DAYS.min + (((first << 8) | second) % DATE_SHIFT_DAYS.span));

/** The first bytes of the 128-bit value a 2.25 UID carries. */
function uidBytes(uid: string): [number, number] {
  const value = BigInt(uid.replace(/^2\.25\./, ''));
  return [Number((value >> 120n) & 0xffn), Number((value >> 112n) & 0xffn)];
}

describe('the date shift is keyed apart from every published value', () => {
  const patients = Array.from({ length: 12 }, (_, index) => `PAT-${1000 + index}`);

  it('the same patient gets the same shift in every file, within 1 to 10 years back', () => {
    for (const patient of patients.slice(0, 3)) {
      const first = deidentifiedPatient(patient, 1);
      const second = deidentifiedPatient(patient, 2);
      expect(second.shift).toBe(first.shift);
      expect(-first.shift).toBeGreaterThanOrEqual(DATE_SHIFT_DAYS.min);
      expect(-first.shift).toBeLessThan(DATE_SHIFT_DAYS.min + DATE_SHIFT_DAYS.span);
    }
  });

  it('a recovery attempt from the pseudonym or the UIDs of the output does not give the shift', () => {
    const outputs = patients.map((patient) => deidentifiedPatient(patient));
    expect(new Set(outputs.map((output) => output.shift)).size).toBeGreaterThan(1);
    for (const output of outputs) {
      const hex = output.pseudonym.replace(/^IWS-/, '');
      expect(hex).toMatch(/^[0-9A-F]{16}$/);
      const fromPseudonym = shiftFromDigestBytes(
        Number.parseInt(hex.slice(0, 2), 16),
        Number.parseInt(hex.slice(2, 4), 16),
      );
      expect(fromPseudonym).not.toBe(output.shift);
      for (const uid of output.uids) expect(shiftFromDigestBytes(...uidBytes(uid))).not.toBe(output.shift);
    }
  });
});
