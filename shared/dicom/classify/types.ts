import type { ClassifiedType } from '#shared/vocabulary/datasets.ts';
import type { ClassifierModel } from './model.ts';

export type { ClassifiedType };

/**
 * What the classifier knows about one series: acquisition physics first, descriptions last.
 * Times are in milliseconds (DICOM units); sidecars (seconds, as BIDS writes them) are converted on the way in.
 */
export type SeriesAcquisition = {
  modality?: string;
  seriesDescription?: string;
  protocolName?: string;
  /** (0018,0024) SequenceName, e.g. Siemens "*tfl3d1_16ns", "ep_b1000#1": set by the sequence, not by people. */
  sequenceName?: string;
  /** BIDS PulseSequenceDetails / GE (0019,109C) PulseSequenceName / (0018,9005) PulseSequenceName. */
  pulseSequenceDetails?: string;
  /** BIDS PulseSequenceType (free text written by the sidecar's author, e.g. "MPRAGE", "Gradient-Echo"). */
  pulseSequenceType?: string;
  repetitionTimeMs?: number;
  echoTimeMs?: number;
  inversionTimeMs?: number;
  flipAngle?: number;
  scanningSequence?: string[];
  sequenceVariant?: string[];
  scanOptions?: string[];
  imageType?: string[];
  mrAcquisitionType?: string;
  manufacturer?: string;
  /** Every b-value seen in the series (one per volume or per file). */
  bValues?: number[];
  /** Distinct diffusion-encoding directions among the b > 50 s/mm² volumes (antipodal vectors count once). */
  diffusionDirections?: number;
  /** (0018,0010) ContrastBolusAgent or BIDS ContrastBolusIngredient. */
  contrastAgent?: string;
  /** (0018,0086) EchoNumbers / BIDS EchoNumber: which echo of a multi-echo acquisition this series holds. */
  echoNumber?: number;
  /**
   * The distinct echo times (ms) of the acquisition this series belongs to, where it has several: a multi-echo series
   * in DICOM holds every echo (several EchoNumbers (0018,0086) and EchoTimes (0018,0081)); dcm2niix writes one file per
   * echo, and the set is read back from the files of one session identical in all but EchoTime.
   */
  echoTimesMs?: number[];
  /**
   * BIDS PhaseEncodingDirection (i, i-, j, j-, k, k-) along the image axes as dcm2niix writes them; from DICOM, the
   * in-plane direction (0018,1312) with the Siemens CSA PhaseEncodingDirectionPositive.
   */
  phaseEncodingDirection?: string;
  numberOfVolumes?: number;
  numberOfFiles?: number;
};

/** A BIDS datatype and suffix, with the entities (acq, dir, echo, flip, mt, part, ce, rec, inv) the headers give. */
export type BidsSuggestion = { datatype: string; suffix: string; entities?: Record<string, string> };

export type SeriesClassification = {
  classifiedType: ClassifiedType;
  /** Probability of the chosen type under the classifier's scores (0-1); see LOW_CONFIDENCE_THRESHOLD. */
  confidence: number;
  reasons: string[];
  bids: BidsSuggestion;
};

export type ClassifyOptions = {
  ignoreDescriptions?: boolean;
  /** Fitted parameters (model.ts); DEFAULT_MODEL when absent. */
  model?: ClassifierModel;
};
