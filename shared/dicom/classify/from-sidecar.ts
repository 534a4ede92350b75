import { countDirections, parseBval, parseBvec } from './diffusion.ts';
import type { SeriesAcquisition } from './types.ts';

const text = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
};

const number = (value: unknown): number | undefined => {
  const parsed =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** BIDS times are in seconds; the classifier works in milliseconds as DICOM does. */
const seconds = (value: unknown): number | undefined => {
  const parsed = number(Array.isArray(value) ? value[0] : value);
  return parsed === undefined ? undefined : parsed * 1000;
};

/** A CS list as dcm2niix writes it: "GR_IR", "GR\\IR", or a JSON array. */
const list = (value: unknown): string[] | undefined => {
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  const raw = text(value);
  return raw ? raw.split(/[\\_]+/).filter(Boolean) : undefined;
};

/**
 * Maps a BIDS / dcm2niix JSON sidecar (with its .bval/.bvec text when present) onto the classifier's input.
 * dcm2niix writes RepetitionTime, EchoTime, InversionTime in seconds; ScanningSequence etc. joined by "_".
 */
export function acquisitionFromSidecar(
  sidecar: Record<string, unknown>,
  bval?: string,
  bvec?: string,
): SeriesAcquisition {
  const bValues = bval ? parseBval(bval) : undefined;
  const vectors = bvec ? parseBvec(bvec) : undefined;
  const acq: SeriesAcquisition = {
    modality: text(sidecar.Modality),
    seriesDescription: text(sidecar.SeriesDescription),
    protocolName: text(sidecar.ProtocolName),
    sequenceName: text(sidecar.SequenceName),
    pulseSequenceDetails: text(sidecar.PulseSequenceDetails) ?? text(sidecar.PulseSequenceName),
    pulseSequenceType: text(sidecar.PulseSequenceType),
    repetitionTimeMs: seconds(sidecar.RepetitionTime),
    echoTimeMs: seconds(sidecar.EchoTime ?? sidecar.EchoTime1),
    inversionTimeMs: seconds(sidecar.InversionTime),
    flipAngle: number(sidecar.FlipAngle),
    scanningSequence: list(sidecar.ScanningSequence),
    sequenceVariant: list(sidecar.SequenceVariant),
    scanOptions: list(sidecar.ScanOptions),
    imageType: list(sidecar.ImageType),
    mrAcquisitionType: text(sidecar.MRAcquisitionType),
    manufacturer: text(sidecar.Manufacturer),
    contrastAgent: text(sidecar.ContrastBolusIngredient) ?? text(sidecar.ContrastBolusAgent),
    echoNumber: number(sidecar.EchoNumber),
    phaseEncodingDirection: text(sidecar.PhaseEncodingDirection),
  };
  if (bValues && bValues.length > 0) {
    acq.bValues = bValues;
    acq.numberOfVolumes = bValues.length;
  }
  if (vectors && vectors.length > 0) acq.diffusionDirections = countDirections(vectors, bValues);
  return Object.fromEntries(Object.entries(acq).filter(([, value]) => value !== undefined)) as SeriesAcquisition;
}
