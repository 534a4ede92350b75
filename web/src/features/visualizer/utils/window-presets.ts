import type { ProcessedAsset } from '#shared/schemas/api/datasets.ts';

/** The reading families the presets know; a series' classified type (docs/domain.md) picks one. */
export type SeriesKind = 'T1' | 'T1_CONTRAST' | 'T2' | 'FLAIR' | 'DWI' | 'ADC' | 'SWI' | 'OTHER';

/** A display window in the volume's scaled values: voxels at or below `min` show black, at or above `max` white. */
export type WindowRange = { min: number; max: number };
export type WindowPreset = WindowRange & { id: string; label: string };

/** What NiiVue computed from the volume's voxels when it loaded it: the 2nd to 98th percentile and the extremes. */
export type VolumeRange = { robustMin: number; robustMax: number; globalMin: number; globalMax: number };

/** The reading family of a series: its classification, else its label (an ADC map carries "ADC" in its name). */
export function seriesKind(volume: ProcessedAsset): SeriesKind {
  const label = volume.label;
  if (/adc(?![a-z])|apparent diffusion/i.test(label)) return 'ADC';
  const type = typeof volume.metadata.classifiedType === 'string' ? volume.metadata.classifiedType : '';
  if (type === 'T1' || type === 'T1_CONTRAST' || type === 'T2' || type === 'FLAIR' || type === 'SWI') return type;
  if (type === 'DWI' || type === 'DTI') return 'DWI';
  if (/flair/i.test(label)) return 'FLAIR';
  if (/\bt2/i.test(label)) return 'T2';
  if (/\bt1/i.test(label)) return 'T1';
  if (/dwi|diffusion|dti/i.test(label)) return 'DWI';
  return 'OTHER';
}

/**
 * The window the scanner stored with the images, when the asset's metadata carries it: DICOM Window Center (0028,1050)
 * and Window Width (0028,1051), read with the linear function of PS3.3 C.11.2.1.2.1 (values at or below
 * c - 0.5 - (w - 1) / 2 are the lowest, at or above c - 0.5 + (w - 1) / 2 the highest).
 */
export function headerWindow(metadata: Record<string, unknown>): WindowRange | undefined {
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const center = Number(first(metadata.windowCenter ?? metadata.WindowCenter));
  const width = Number(first(metadata.windowWidth ?? metadata.WindowWidth));
  if (!Number.isFinite(center) || !Number.isFinite(width) || width < 1) return undefined;
  return { min: center - 0.5 - (width - 1) / 2, max: center - 0.5 + (width - 1) / 2 };
}

/** A window between two fractions of the robust range (fractions above 1 reach past its top). */
function within(range: VolumeRange, low: number, high: number): WindowRange {
  const width = range.robustMax - range.robustMin;
  return { min: range.robustMin + low * width, max: range.robustMin + high * width };
}

/**
 * The presets a series offers; the automatic one is the window NiiVue opens a volume with. The ranges follow the volume's own robust range (MR
 * intensities have no absolute unit), shaped to what each reading looks for: grey/white contrast on a T1, fluid on a
 * T2, hyperintense lesions on a FLAIR, restricted diffusion (bright) on a DWI; an ADC map in mm²/s gets the fixed
 * 0 to 3.0 × 10⁻³ mm²/s reading window (0 to 3000 when stored in 10⁻⁶ mm²/s). The scanner's own window comes first
 * when the header carried one.
 */
export function windowPresets(kind: SeriesKind, range: VolumeRange, header?: WindowRange): WindowPreset[] {
  const presets: WindowPreset[] = [];
  if (header) presets.push({ id: 'scanner', label: 'Scanner window', ...header });
  presets.push({ id: 'auto', label: 'Automatic (robust range)', ...within(range, 0, 1) });
  switch (kind) {
    case 'T1':
      presets.push({ id: 't1-brain', label: 'T1 brain', ...within(range, 0.1, 0.85) });
      break;
    case 'T1_CONTRAST':
      presets.push({ id: 't1-brain', label: 'T1 brain', ...within(range, 0.1, 0.85) });
      presets.push({ id: 't1-enhancement', label: 'Enhancement', ...within(range, 0.3, 1.2) });
      break;
    case 'T2':
      presets.push({ id: 't2-brain', label: 'T2 brain', ...within(range, 0, 0.8) });
      presets.push({ id: 't2-fluid', label: 'T2 fluid', ...within(range, 0.3, 1.1) });
      break;
    case 'FLAIR':
      presets.push({ id: 'flair-lesions', label: 'FLAIR lesions', ...within(range, 0.25, 0.9) });
      break;
    case 'DWI':
      presets.push({ id: 'dwi-stroke', label: 'DWI stroke', ...within(range, 0.1, 0.7) });
      break;
    case 'ADC': {
      const perMicro = range.robustMax > 1;
      presets.push({ id: 'adc', label: 'ADC', min: 0, max: perMicro ? 3000 : 0.003 });
      break;
    }
    case 'SWI':
      presets.push({ id: 'swi-veins', label: 'SWI veins', ...within(range, 0, 0.6) });
      break;
    case 'OTHER':
      break;
  }
  presets.push({ id: 'full', label: 'Full range', min: range.globalMin, max: range.globalMax });
  return presets;
}
