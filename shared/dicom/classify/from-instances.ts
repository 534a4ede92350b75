import { readCsaHeader } from './csa.ts';
import { B0_THRESHOLD, countDirections } from './diffusion.ts';
import type { TagReader } from './tag-reader.ts';
import type { SeriesAcquisition } from './types.ts';

/** One diffusion encoding read from one instance (or one frame of an enhanced instance). */
type Encoding = { b: number; vector?: number[] };

const first = (values: number[]) => (values.length > 0 ? values[0] : undefined);
const list = (value: string | undefined) =>
  value
    ? value
        .split('\\')
        .map((part) => part.trim())
        .filter(Boolean)
    : undefined;

/** Enhanced MR (PS3.3 C.8.13): an attribute in the shared functional groups or the first frame's groups. */
function functionalGroup(reader: TagReader, sequenceTag: string): TagReader | undefined {
  const shared = reader.items('52009229')[0]?.items(sequenceTag)[0];
  if (shared) return shared;
  return reader.items('52009230')[0]?.items(sequenceTag)[0];
}

/** Standard diffusion attributes (PS3.3 C.8.13.5.9): DiffusionBValue (0018,9087) and DiffusionGradientOrientation (0018,9089). */
function standardEncoding(reader: TagReader): Encoding | undefined {
  const b = first(reader.numbers('00189087', 'FD'));
  if (b === undefined) return undefined;
  const vector = reader.items('00189076')[0]?.numbers('00189089', 'FD') ?? reader.numbers('00189089', 'FD');
  return { b, vector: vector.length === 3 ? vector : undefined };
}

/** Vendor diffusion attributes, as dcm2niix reads them (its nii_dicom.cpp is the reference for these tags). */
function vendorEncoding(reader: TagReader, manufacturer: string): Encoding | undefined {
  const vendor = manufacturer.toUpperCase();
  if (vendor.includes('GE')) {
    // GE (0043,1039) IS: first value is the b-value (newer software adds 1e9); gradients in (0019,10BB/BC/BD).
    const raw = first(reader.numbers('00431039', 'IS'));
    if (raw !== undefined) {
      const b = raw >= 1e9 ? raw - 1e9 : raw;
      const vector = ['001910bb', '001910bc', '001910bd'].map((tag) => first(reader.numbers(tag, 'DS')) ?? Number.NaN);
      return { b, vector: vector.every(Number.isFinite) ? vector : undefined };
    }
  }
  if (vendor.includes('PHILIPS')) {
    // Philips (2001,1003) DiffusionBFactor FL; directions (2005,10B0/B1/B2) FL.
    const b = first(reader.numbers('20011003', 'FL'));
    if (b !== undefined) {
      const vector = ['200510b0', '200510b1', '200510b2'].map((tag) => first(reader.numbers(tag, 'FL')) ?? Number.NaN);
      return { b, vector: vector.every(Number.isFinite) ? vector : undefined };
    }
  }
  if (vendor.includes('SIEMENS')) {
    // Siemens (0019,100C) B_value IS and (0019,100E) DiffusionGradientDirection FD; else the CSA image header.
    const b = first(reader.numbers('0019100c', 'IS'));
    if (b !== undefined) {
      const vector = reader.numbers('0019100e', 'FD');
      return { b, vector: vector.length === 3 ? vector : undefined };
    }
    const csaBytes = reader.bytes('00291010');
    if (csaBytes) {
      const csa = readCsaHeader(csaBytes);
      const csaB = Number(csa.get('B_value')?.[0]);
      if (Number.isFinite(csaB)) {
        const vector = (csa.get('DiffusionGradientDirection') ?? []).map(Number);
        return { b: csaB, vector: vector.length === 3 && vector.every(Number.isFinite) ? vector : undefined };
      }
    }
  }
  return undefined;
}

function encodingsOf(reader: TagReader, manufacturer: string): Encoding[] {
  const frames = reader.items('52009230');
  const perFrame = frames.flatMap((frame) => {
    const diffusion = frame.items('00189117')[0];
    const encoding = diffusion ? standardEncoding(diffusion) : undefined;
    return encoding ? [encoding] : [];
  });
  if (perFrame.length > 0) return perFrame;
  const encoding = standardEncoding(reader) ?? vendorEncoding(reader, manufacturer);
  return encoding ? [encoding] : [];
}

/**
 * Builds the classifier's input from every instance of ONE series (classic or enhanced MR): the acquisition
 * attributes of the first instance, and over all instances the diffusion encodings, distinct directions and volumes.
 */
export function acquisitionFromReaders(readers: TagReader[]): SeriesAcquisition {
  const head = readers[0];
  if (!head) return {};
  const manufacturer = head.text('00080070') ?? '';
  const timing = functionalGroup(head, '00189112');
  const echo = functionalGroup(head, '00189114');
  const modifier = functionalGroup(head, '00189115');
  const acq: SeriesAcquisition = {
    modality: head.text('00080060'),
    seriesDescription: head.text('0008103e'),
    protocolName: head.text('00181030'),
    sequenceName: head.text('00180024') ?? head.text('00189005'),
    pulseSequenceDetails:
      head.text('0019109c') && manufacturer.toUpperCase().includes('GE') ? head.text('0019109c') : undefined,
    repetitionTimeMs: first(head.numbers('00180080', 'DS')) ?? first(timing?.numbers('00180080', 'FD') ?? []),
    echoTimeMs: first(head.numbers('00180081', 'DS')) ?? first(echo?.numbers('00189082', 'FD') ?? []),
    inversionTimeMs: first(head.numbers('00180082', 'DS')) ?? first(modifier?.numbers('00189079', 'FD') ?? []),
    flipAngle: first(head.numbers('00181314', 'DS')) ?? first(timing?.numbers('00181314', 'DS') ?? []),
    scanningSequence: list(head.text('00180020')) ?? enhancedScanningSequence(head),
    sequenceVariant: list(head.text('00180021')),
    scanOptions: list(head.text('00180022')),
    imageType: list(head.text('00080008')),
    mrAcquisitionType: head.text('00180023'),
    manufacturer: manufacturer || undefined,
    contrastAgent: head.text('00180010') ?? head.items('00180012')[0]?.text('00180010'),
    echoNumber: first(head.numbers('00180086', 'IS')),
    phaseEncodingDirection: phaseEncodingDirection(head),
    numberOfFiles: readers.length,
  };

  const echoTimes = distinctEchoTimes(readers);
  if (echoTimes.length > 1) acq.echoTimesMs = echoTimes;

  const encodings = readers.flatMap((reader) => encodingsOf(reader, manufacturer));
  const positions = new Set(readers.map((reader) => reader.text('00200032') ?? ''));
  const frames = readers.reduce((sum, reader) => sum + Math.max(1, first(reader.numbers('00280008', 'IS')) ?? 1), 0);
  const temporal = first(head.numbers('00200105', 'IS'));
  const isMosaic = (acq.imageType ?? []).some((token) => token.toUpperCase() === 'MOSAIC');
  acq.numberOfVolumes =
    temporal && temporal > 1
      ? temporal
      : isMosaic
        ? readers.length
        : Math.max(1, Math.round(frames / Math.max(1, positions.size)));

  // GE and Philips write their diffusion attributes (b=0, zero gradient) on every image of any series: only a
  // diffusion weighting or a non-zero gradient makes a series diffusion-encoded.
  const encoded = (encoding: Encoding) =>
    encoding.b > B0_THRESHOLD || (encoding.vector ?? []).some((value) => Math.abs(value) > 1e-3);
  if (encodings.some(encoded)) {
    const bValues = encodings.map((encoding) => encoding.b);
    acq.bValues = bValues;
    const vectors = encodings.map((encoding) => encoding.vector ?? [0, 0, 0]);
    acq.diffusionDirections = countDirections(vectors, bValues);
    const distinct = new Set(
      encodings.map(
        (encoding) => `${Math.round(encoding.b)}:${(encoding.vector ?? []).map((value) => value.toFixed(3)).join(',')}`,
      ),
    );
    acq.numberOfVolumes = Math.max(acq.numberOfVolumes ?? 0, distinct.size);
  }
  return Object.fromEntries(
    Object.entries(acq).filter(([, value]) => value !== undefined && value !== ''),
  ) as SeriesAcquisition;
}

/**
 * The distinct echo times of a series, in ms, ascending: a multi-echo series holds one image per echo and slice, each
 * with its EchoNumbers (0018,0086) and EchoTime (0018,0081); an enhanced MR instance gives each frame's
 * EffectiveEchoTime (0018,9082) in its MR Echo sequence (0018,9114).
 */
function distinctEchoTimes(readers: TagReader[]): number[] {
  const times = new Set<number>();
  for (const reader of readers) {
    const frames = reader.items('52009230');
    for (const frame of frames) {
      const value = first(frame.items('00189114')[0]?.numbers('00189082', 'FD') ?? []);
      if (value !== undefined && value > 0) times.add(Math.round(value * 1000) / 1000);
    }
    const value = first(reader.numbers('00180081', 'DS'));
    if (value !== undefined && value > 0) times.add(Math.round(value * 1000) / 1000);
  }
  return [...times].sort((a, b) => a - b);
}

/** Enhanced MR (0018,9008) EchoPulseSequence SPIN / GRADIENT / BOTH, mapped onto the classic ScanningSequence terms. */
function enhancedScanningSequence(reader: TagReader): string[] | undefined {
  const echoPulse = reader.text('00189008')?.toUpperCase();
  if (!echoPulse) return undefined;
  const out = echoPulse === 'SPIN' ? ['SE'] : echoPulse === 'GRADIENT' ? ['GR'] : ['SE', 'GR'];
  // (0018,9009) InversionRecovery and (0018,9018) EchoPlanarPulseSequence, PS3.3 C.8.13.4.
  if (reader.text('00189009')?.toUpperCase() === 'YES') out.push('IR');
  if (reader.text('00189018')?.toUpperCase() === 'YES') out.push('EP');
  return out;
}

/**
 * The phase-encoding direction as dcm2niix writes it (BIDS PhaseEncodingDirection), where the headers give its polarity:
 * (0018,1312) InPlanePhaseEncodingDirection COL is the image's second axis (j); the Siemens CSA header's
 * PhaseEncodingDirectionPositive gives the sign, reversed because dcm2niix stores rows bottom-up (1 → "j-", as in its
 * sidecars of the shared Siemens series). ROW (i) is left out: its sign depends on the orientation.
 */
function phaseEncodingDirection(reader: TagReader): string | undefined {
  if (reader.text('00181312')?.toUpperCase() !== 'COL') return undefined;
  const csaBytes = reader.bytes('00291010');
  const positive = csaBytes ? readCsaHeader(csaBytes).get('PhaseEncodingDirectionPositive')?.[0] : undefined;
  if (positive === '1') return 'j-';
  if (positive === '0') return 'j';
  return undefined;
}
