import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import lockbox from './lockbox.json' with { type: 'json' };
import { parseLabelledCsv, uniqueProtocols, type LabelledRow, type Protocol } from './evaluation.ts';

/**
 * The labelled development sets (shared data, labels/): dcm2niix sidecars with their BIDS label, every one read by the
 * bench, the fitting tools and the tests (docs/classification.md#measuring-on-unseen-scanners).
 */
export const DEV_SETS = [
  'labels/dev-sidecars.csv',
  'labels/dev-sidecars-openneuro.csv',
  'labels/dev-sidecars-openneuro-2.csv',
] as const;

/** Every row of every development set. `sharedData` is the shared data folder (tests/helpers/shared-data.ts). */
export function readDevRows(sharedData: string): LabelledRow[] {
  return DEV_SETS.flatMap((file) => parseLabelledCsv(readFileSync(join(sharedData, file), 'utf8')));
}

/** The seed and the sources drawn into the lockbox (lockbox.json, written by drawLockbox). */
export const LOCKBOX: { seed: number; share: string; sources: string[] } = lockbox;

/** A 32-bit seeded generator (mulberry32): the same seed gives the same draw on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The lockbox draw: the sources sorted by name, shuffled by a seeded Fisher-Yates, and the first third (rounded) kept.
 * Whole sources are locked away, never rows, so a locked figure is a figure on scanners and curators never seen.
 */
export function drawLockbox(sources: readonly string[], seed: number): string[] {
  const order = [...new Set(sources)].sort();
  const random = seeded(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.slice(0, Math.round(order.length / 3)).sort();
}

const locked = new Set(LOCKBOX.sources);

/** The protocols rules and fitted parameters may be tuned on: every source outside the lockbox. */
export const tuningProtocols = (protocols: readonly Protocol[]) =>
  protocols.filter((protocol) => !locked.has(protocol.source));

/** The protocols of the locked sources, scored once at the end of a round (bench/classify.ts --lockbox). */
export const lockboxProtocols = (protocols: readonly Protocol[]) =>
  protocols.filter((protocol) => locked.has(protocol.source));

/** Every protocol of every development set (uniqueProtocols). */
export const readDevProtocols = (sharedData: string): Protocol[] => uniqueProtocols(readDevRows(sharedData));
