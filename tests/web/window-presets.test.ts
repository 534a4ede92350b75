import { describe, expect, it } from 'vitest';
import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';
import { headerWindow, seriesKind, windowPresets } from '#web/features/visualizer/utils/window-presets.ts';

function volume(label: string, metadata: Record<string, unknown> = {}): ProcessedAsset {
  return {
    id: 'vol-1',
    datasetId: 'ds-1',
    type: 'VOLUME',
    label,
    byteSize: 1,
    mimeType: 'application/gzip',
    metadata,
    createdAt: '2026-01-01T00:00:00Z',
  };
}

const RANGE = { robustMin: 100, robustMax: 1100, globalMin: 0, globalMax: 4000 };

describe('window presets per series type', () => {
  it('reads the series type from its classification, else from its label', () => {
    // Act
    const kinds = [
      seriesKind(volume('Sag MPRAGE (NIfTI)', { classifiedType: 'T1' })),
      seriesKind(volume('Ax DTI 64 dir (NIfTI)', { classifiedType: 'DTI' })),
      seriesKind(volume('Ax T2 FLAIR (NIfTI)')),
      seriesKind(volume('dADC map (NIfTI)', { classifiedType: 'DWI' })),
      seriesKind(volume('Localizer (NIfTI)', { classifiedType: 'OTHER' })),
    ];

    // Assess
    expect(kinds).toEqual(['T1', 'DWI', 'FLAIR', 'ADC', 'OTHER']);
  });

  it("shapes each type's presets from the volume's robust range, automatic first and full range last", () => {
    // Act
    const t1 = windowPresets('T1', RANGE);
    const dwi = windowPresets('DWI', RANGE);
    const adc = windowPresets('ADC', { robustMin: 0, robustMax: 0.0025, globalMin: 0, globalMax: 0.004 });

    // Assess
    expect(t1.map((p) => p.id)).toEqual(['auto', 't1-brain', 'full']);
    expect(t1[0]).toMatchObject({ min: 100, max: 1100 });
    expect(t1[1]!.min).toBeCloseTo(200);
    expect(t1[1]!.max).toBeCloseTo(950);
    expect(t1[2]).toMatchObject({ min: 0, max: 4000 });
    expect(dwi.find((p) => p.id === 'dwi-stroke')).toMatchObject({ min: 200, max: 800 });
    expect(adc.find((p) => p.id === 'adc')).toMatchObject({ min: 0, max: 0.003 });
  });

  it("puts the scanner's window first when the metadata carries Window Center and Width (PS3.3 C.11.2.1.2.1)", () => {
    // Act
    const scanner = headerWindow({ windowCenter: [40, 60], windowWidth: [80, 120] });
    const presets = windowPresets('OTHER', RANGE, scanner);

    // Assess
    expect(scanner).toEqual({ min: 0, max: 79 });
    expect(headerWindow({})).toBeUndefined();
    expect(headerWindow({ windowCenter: 40, windowWidth: 0 })).toBeUndefined();
    expect(presets.map((p) => p.id)).toEqual(['scanner', 'auto', 'full']);
  });
});
