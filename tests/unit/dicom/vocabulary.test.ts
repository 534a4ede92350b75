import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedDataPath } from '#tests/helpers/shared-data.ts';
import { evaluateProtocols, parseLabelledCsv, uniqueProtocols } from '#bench/classify/evaluation.ts';
import { classifySeries } from '#shared/dicom/classify/index.ts';
import { cleanDescription, isDescriptorWord } from '#shared/dicom/deidentify/vocabulary.ts';

const CSV = sharedDataPath('labels/dev-sidecars.csv');

describe('Clean Descriptors vocabulary', () => {
  it.each([
    ['T1 MPRAGE D 03Mar2024', 'T1 MPRAGE'],
    ['ep2d_diff_mddw_30_p2', 'ep2d_diff_mddw_p2'],
    ['DTI 64 dirs b1000 AX 2.5mm Grant', 'DTI 64 dirs b1000 AX 2.5mm'],
    ['SAG 3D FLAIR 1mm post gd', 'SAG 3D FLAIR 1mm post gd'],
    ['T1+C', 'T1+C'],
    ['*tfl3d1_16ns', '*tfl3d1'],
    ['Accelerated SAG IR-SPGR', 'Accelerated SAG IR-SPGR'],
    ['Lives at 12 Oak Street Springfield, husband Robert, phone (312) 555-0100, MRN A12345', ''],
    ['Seen 3 March 2024 by Dr Alan Grant; SSN 123-45-6789', ''],
    ['03 03 24 T2 Müller', 'T2'],
    ['TSE B67890 Smith', 'TSE'],
  ])('%j → %j', (text, cleaned) => {
    expect(cleanDescription(text)).toBe(cleaned);
  });

  it('knows acquisition words and parameter shapes, not names, dates or record numbers', () => {
    for (const word of ['MPRAGE', 'flair', 'GRE', 'TSE', 'DTI', '64dir', '3D', '1mm', 'b1000', 'AX', 'SAG', 'gd'])
      expect(isDescriptorWord(word), word).toBe(true);
    for (const word of ['Robert', 'Grant', '03Mar2024', 'A12345', 'B67890', '2024', 'Springfield', 'plumber'])
      expect(isDescriptorWord(word), word).toBe(false);
  });

  it('the classifier scores the same on labelled descriptions cleaned by the vocabulary', () => {
    const protocols = uniqueProtocols(parseLabelledCsv(readFileSync(CSV, 'utf8')));
    const cleaned = protocols.map((protocol) => ({
      ...protocol,
      acquisition: {
        ...protocol.acquisition,
        ...(protocol.acquisition.seriesDescription !== undefined
          ? { seriesDescription: cleanDescription(protocol.acquisition.seriesDescription) }
          : {}),
        ...(protocol.acquisition.protocolName !== undefined
          ? { protocolName: cleanDescription(protocol.acquisition.protocolName) }
          : {}),
      },
    }));
    expect(
      cleaned.some((p, i) => p.acquisition.seriesDescription !== protocols[i]!.acquisition.seriesDescription),
    ).toBe(true);
    const changed = protocols.filter(
      (protocol, index) =>
        classifySeries(protocol.acquisition).classifiedType !==
        classifySeries(cleaned[index]!.acquisition).classifiedType,
    );
    expect(changed.map((protocol) => protocol.examplePath)).toEqual([]);
    expect(evaluateProtocols(cleaned).overall).toEqual(evaluateProtocols(protocols).overall);
  });
});
