/**
 * Series classifier benchmark, by unique protocol on the labelled development sets (classify/dev-sets.ts): leave one
 * source out over the sources outside the lockbox (the fitted parameters refitted without the held-out source), with
 * and without descriptions, per source, per class and per BIDS suffix, beside a plain keyword classifier; the review
 * flag (share flagged, share of wrong answers caught, overall and per source); dcm2niix's own BidsGuess on the shared
 * DICOM series beside ours, and the DICOM path against the sidecar path; and classification time per series.
 * Run: npx tsx bench/classify.ts [--misses] [--write-model] [--lockbox]
 * --write-model refits the shipped model (shared/dicom/classify/fitted-model.json) on every labelled protocol.
 * --lockbox also scores the locked sources (classify/lockbox.json) with parameters fitted on the others: the honest
 * estimate, read once at the end of a round (docs/classification.md#the-lockbox). --misses never lists locked sources.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquisitionFromRow, uniqueProtocols } from './classify/evaluation.ts';
import { LOCKBOX, readDevRows, tuningProtocols } from './classify/dev-sets.ts';
import {
  classRight,
  leaveOneSourceOut,
  lockboxEvaluation,
  suffixRight,
  type LosoResult,
  type Score,
} from './classify/loso.ts';
import { classifySeries } from '#shared/dicom/classify/index.ts';
import { compareWithDcm2niix, timeSeriesClassification } from './lib/classify.ts';
import { SHARED_DATA } from './lib/data.ts';
import { fitClassifier } from './classify/fit.ts';

const SHARED = SHARED_DATA;
const showMisses = process.argv.includes('--misses');
const rows = readDevRows(SHARED);
const protocols = uniqueProtocols(rows);
const tuning = tuningProtocols(protocols);
const percent = (value: number) => (Number.isNaN(value) ? '  n/a ' : `${(value * 100).toFixed(1).padStart(5)}%`);
const figure = (s: Score) => `${percent(s.accuracy)} (${s.correct}/${s.total})`;

if (process.argv.includes('--write-model')) {
  const path = new URL('../shared/dicom/classify/fitted-model.json', import.meta.url);
  const model = fitClassifier(protocols);
  // Laid out as Prettier lays out JSON, one decision a line.
  const records = Object.entries(model.reliability).map(
    ([decision, [right, total]]) => `    ${JSON.stringify(decision)}: [${right}, ${total}]`,
  );
  const { withDescriptions, withoutDescriptions } = model.lowConfidenceThreshold;
  writeFileSync(
    path,
    `{\n  "lowConfidenceThreshold": { "withDescriptions": ${withDescriptions}, "withoutDescriptions": ${withoutDescriptions} },\n  "reliabilityPrior": { "withDescriptions": ${model.reliabilityPrior.withDescriptions}, "withoutDescriptions": ${model.reliabilityPrior.withoutDescriptions} },\n  "reliability": {\n${records.join(',\n')}\n  }\n}\n`,
  );
  console.log(`wrote ${path.pathname}`);
}

console.log(
  `dev sidecars: ${rows.length} rows, ${protocols.length} unique (protocol, label) pairs, ${protocols.filter((p) => p.evaluable).length} evaluable, ${new Set(protocols.map((p) => p.source)).size} sources; outside the lockbox: ${tuning.filter((p) => p.evaluable).length} evaluable protocols of ${new Set(tuning.map((p) => p.source)).size} sources`,
);

function report(name: string, result: LosoResult, misses = showMisses): void {
  console.log(`\n=== ${name} ===`);
  const { overall, flag } = result;
  console.log(`class accuracy   ours ${figure(overall.class)}   keyword ${figure(overall.keywordClass)}`);
  console.log(`suffix accuracy  ours ${figure(overall.suffix)}   keyword ${figure(overall.keywordSuffix)}`);
  if (name.includes('WITHOUT')) {
    // No sidecar here records a contrast agent: without descriptions a post-contrast T1 can only read as T1.
    const agentBlind = result.records.filter(
      ({ protocol, ours }) =>
        ours.classifiedType === protocol.label ||
        (protocol.label === 'T1_CONTRAST' && ours.classifiedType === 'T1' && !protocol.acquisition.contrastAgent),
    ).length;
    console.log(
      `class accuracy, post-contrast T1 without a recorded agent scored as T1: ${percent(agentBlind / result.records.length)} (${agentBlind}/${result.records.length})`,
    );
  }
  console.log(
    `review flag: ${percent(flag.flaggedShare)} of protocols flagged (${flag.flagged}/${flag.total}), catching ${percent(flag.errorsCaught)} of the ${flag.errors} wrong class answers`,
  );
  console.log(
    `review flag, wrong answers besides the ${flag.unstatedContrast} post-contrast T1s that state no contrast: catching ${percent(flag.errorsCaughtBesidesUnstatedContrast)} of ${flag.errors - flag.unstatedContrast}; of those ${flag.unstatedContrast}, ${flag.unstatedContrastCaught} flagged`,
  );
  const byHeader = result.records.filter(({ ours }) => ours.studyReview?.startsWith('Header review'));
  console.log(
    `  of which flagged by the study review (in most of their studies) or the header review: ${flag.byStudy} protocols, ${flag.byStudyWrong} of them wrong answers; by the header review ${byHeader.length}, ${byHeader.filter(({ ours, protocol }) => !classRight(ours, protocol)).length} of them wrong`,
  );
  console.log(
    'per source (class ours / keyword, suffix ours / keyword; ahead, level or BEHIND the keyword baseline; review flag: share flagged, wrong answers caught):',
  );
  const tally = { ahead: 0, level: 0, behind: 0 };
  for (const [source, s] of result.perSource) {
    // A suffix figure counts only where the source has labels in the BIDS vocabulary.
    const pairs: [number, number][] = [[s.class.accuracy, s.keywordClass.accuracy]];
    if (s.suffix.total > 0) pairs.push([s.suffix.accuracy, s.keywordSuffix.accuracy]);
    const status = pairs.some(([ours, keyword]) => ours < keyword)
      ? 'BEHIND'
      : pairs.some(([ours, keyword]) => ours > keyword)
        ? 'ahead'
        : 'level';
    tally[status === 'BEHIND' ? 'behind' : status] += 1;
    console.log(
      `  ${source.padEnd(14)} ${String(s.class.total).padStart(4)}  class ${percent(s.class.accuracy)} / ${percent(s.keywordClass.accuracy)}   suffix ${percent(s.suffix.accuracy)} / ${percent(s.keywordSuffix.accuracy)}  ${status.padEnd(6)}  flag ${percent(s.flag.flagged / s.class.total)}, caught ${s.flag.caught}/${s.flag.wrong}`,
    );
  }
  console.log(
    `sources ahead of the keyword baseline: ${tally.ahead}, level: ${tally.level}, behind: ${tally.behind} (of ${result.perSource.size})`,
  );
  console.log('per class (recall):');
  for (const [label, s] of result.perClass) console.log(`  ${label.padEnd(12)} ${figure(s)}`);
  console.log('per suffix (recall):');
  for (const [suffix, s] of result.perSuffix) console.log(`  ${suffix.padEnd(12)} ${figure(s)}`);
  console.log('BIDS entities (labelled protocols named alike by ours; given where the label has none):');
  for (const [entity, tally] of result.perEntity)
    console.log(
      `  ${entity.padEnd(6)} ${tally.labelled ? percent(tally.matched / tally.labelled) : '  n/a '} (${tally.matched}/${tally.labelled}), spurious ${tally.spurious}`,
    );
  if (!misses) return;
  for (const { protocol, ours } of result.records) {
    // Scored as the figures are (loso.ts classRight, suffixRight): a magnitude1 answer for a magnitude2 file is right.
    const classWrong = !classRight(ours, protocol);
    const suffixWrong = protocol.labelBids.suffix !== undefined && !suffixRight(ours, protocol);
    if (!classWrong && !suffixWrong) continue;
    const a = protocol.acquisition;
    console.log(
      `  miss ${protocol.source} ${protocol.label}/${protocol.labelBids.suffix} → ${ours.classifiedType}/${ours.bids.suffix} (${ours.confidence}${ours.flagged ? (ours.studyReview ? ' flagged by study' : ' flagged') : ''}) ${protocol.examplePath} | ${a.seriesDescription ?? ''} | ${a.protocolName ?? ''} | seq ${a.sequenceName ?? a.pulseSequenceDetails ?? ''} ${a.scanningSequence?.join('\\') ?? ''} ${a.sequenceVariant?.join('\\') ?? ''} img ${a.imageType?.join('\\') ?? ''} TR ${a.repetitionTimeMs} TE ${a.echoTimeMs} TI ${a.inversionTimeMs} FA ${a.flipAngle} b ${[...new Set(a.bValues ?? [])].join(',')} dirs ${a.diffusionDirections} :: ${ours.reasons[0]}`,
    );
  }
}

report('leave one source out, WITH descriptions', leaveOneSourceOut(tuning));
report(
  'leave one source out, WITHOUT descriptions (physics only)',
  leaveOneSourceOut(tuning, { ignoreDescriptions: true }),
);
if (process.argv.includes('--lockbox')) {
  console.log(`\nLOCKBOX: ${LOCKBOX.sources.length} sources (seed ${LOCKBOX.seed}), fitted on every other source`);
  report('LOCKBOX, WITH descriptions', lockboxEvaluation(protocols, LOCKBOX.sources), false);
  report(
    'LOCKBOX, WITHOUT descriptions (physics only)',
    lockboxEvaluation(protocols, LOCKBOX.sources, { ignoreDescriptions: true }),
    false,
  );
}

// dcm2niix's BidsGuess where a labelled sidecar carries one (dcm2niix v1.0.20230731 and later write it).
const guessed = rows.filter((row) => (row.BidsGuess ?? '').trim());
console.log(
  `\nlabelled sidecars carrying dcm2niix's BidsGuess: ${guessed.length} of ${rows.length}${guessed.length ? '' : ' (no comparison possible on the CSVs; see the shared DICOM below)'}`,
);

console.log('\n=== shared DICOM: ours (DICOM path, sidecar path) beside dcm2niix BidsGuess ===');
for (const line of await compareWithDcm2niix(join(SHARED, 'dicom'))) console.log(`  ${line}`);

// Timing: classification alone, per series.
const acquisitions = rows.map(acquisitionFromRow);
for (let i = 0; i < 2; i += 1) for (const acq of acquisitions) classifySeries(acq);
const started = performance.now();
const rounds = 3;
for (let i = 0; i < rounds; i += 1) for (const acq of acquisitions) classifySeries(acq);
const perSeriesUs = ((performance.now() - started) * 1000) / (rounds * acquisitions.length);
console.log(
  `\nclassifySeries: ${perSeriesUs.toFixed(1)} µs per series (${rounds * acquisitions.length} classifications)`,
);
const series: [string, string][] = [
  ['ge-t1-ir-spgr (196 files)', join(SHARED, 'dicom/ge-t1-ir-spgr/dicom')],
  ['philips-dti-b2000 (680 files)', join(SHARED, 'dicom/philips-dti-b2000/dicom/601_WIP_dti_ax')],
];
for (const [name, folder] of series) {
  const timing = timeSeriesClassification(folder);
  console.log(
    `${name}: ${timing.result.classifiedType} (${timing.result.confidence}); read ${timing.acquisitionMs.toFixed(0)} ms, classify ${timing.classifyUs.toFixed(0)} µs`,
  );
}
