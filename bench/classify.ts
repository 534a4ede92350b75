/**
 * Series classifier benchmark: confusion matrices by unique protocol on labels/dev-sidecars.csv (with and without
 * descriptions), per source, BIDS suffix agreement, calibration, and per-series classification time
 * (sidecar rows and the shared DICOM series, with the DICOM parse time shown apart).
 * Run: npx tsx bench/classify.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  evaluateProtocols,
  formatConfusion,
  parseLabelledCsv,
  uniqueProtocols,
  acquisitionFromRow,
} from '#shared/dicom/classify/evaluation.ts';
import { classifySeries } from '#shared/dicom/classify/index.ts';
import { timeSeriesClassification } from './lib/classify.ts';
import { SHARED_DATA } from './lib/data.ts';

const SHARED = SHARED_DATA;
const rows = parseLabelledCsv(readFileSync(join(SHARED, 'labels/dev-sidecars.csv'), 'utf8'));
const protocols = uniqueProtocols(rows);
const percent = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`);

console.log(
  `dev-sidecars.csv: ${rows.length} rows, ${protocols.length} unique (protocol, label) pairs, ${protocols.filter((p) => p.evaluable).length} evaluable`,
);
console.log(
  'Per-class accuracy = recall over evaluable unique protocols (definitions: shared/dicom/classify/evaluation.ts).\n',
);

for (const ignoreDescriptions of [false, true]) {
  const evaluation = evaluateProtocols(protocols, { ignoreDescriptions });
  console.log(`=== ${ignoreDescriptions ? 'WITHOUT descriptions (physics only)' : 'WITH descriptions'} ===`);
  console.log(formatConfusion(evaluation));
  console.log(
    `overall ${percent(evaluation.overall.accuracy)} (${evaluation.overall.correct}/${evaluation.overall.total}), expected calibration error ${evaluation.calibration.ece.toFixed(3)}`,
  );
  console.log('reliability (confidence bin: protocols, mean confidence, accuracy):');
  for (const bin of evaluation.calibration.bins.filter((b) => b.count > 0)) {
    console.log(
      `  [${bin.from.toFixed(2)}, ${bin.to.toFixed(2)}): ${String(bin.count).padStart(4)}  ${bin.meanConfidence.toFixed(3)}  ${bin.accuracy.toFixed(3)}`,
    );
  }
  for (const source of [...new Set(protocols.map((p) => p.source))]) {
    const bySource = evaluateProtocols(
      protocols.filter((p) => p.source === source),
      { ignoreDescriptions },
    );
    const classes = Object.entries(bySource.perClass)
      .filter(([, s]) => s.total > 0)
      .map(([type, s]) => `${type} ${s.correct}/${s.total}`)
      .join(', ');
    console.log(
      `source ${source}: overall ${percent(bySource.overall.accuracy)} (${bySource.overall.correct}/${bySource.overall.total}); ${classes}`,
    );
  }
  for (const { protocol, result } of evaluation.errors) {
    console.log(
      `  miss: ${protocol.label} → ${result.classifiedType} (${result.confidence}) ${protocol.examplePath}: ${result.reasons[0]}`,
    );
  }
  console.log('');
}

// BIDS suffix agreement, by row (the label's own datatype/suffix), for the rows classified into the measured types.
let bidsTotal = 0;
let bidsAgree = 0;
for (const row of rows) {
  const result = classifySeries(acquisitionFromRow(row));
  if (result.classifiedType === 'OTHER') continue;
  bidsTotal += 1;
  if (result.bids.datatype === row.datatype && result.bids.suffix === row.suffix) bidsAgree += 1;
}
console.log(
  `BIDS datatype/suffix equal to the label's, rows not classified OTHER: ${percent(bidsAgree / bidsTotal)} (${bidsAgree}/${bidsTotal})\n`,
);

// Timing: classification alone, per series.
const acquisitions = rows.map(acquisitionFromRow);
for (let i = 0; i < 2; i += 1) for (const acq of acquisitions) classifySeries(acq);
const started = performance.now();
const rounds = 5;
for (let i = 0; i < rounds; i += 1) for (const acq of acquisitions) classifySeries(acq);
const perSeriesUs = ((performance.now() - started) * 1000) / (rounds * acquisitions.length);
console.log(
  `classifySeries: ${perSeriesUs.toFixed(1)} µs per series (${rounds * acquisitions.length} classifications)`,
);

const series: [string, string][] = [
  ['ge-t1-ir-spgr (196 files)', join(SHARED, 'dicom/ge-t1-ir-spgr/dicom')],
  ['philips-dti-b2000 (680 files)', join(SHARED, 'dicom/philips-dti-b2000/dicom/601_WIP_dti_ax')],
  ['siemens-dwi-mosaic (2 gzip files)', join(SHARED, 'dicom/siemens-dwi-mosaic')],
];
for (const [name, folder] of series) {
  const timing = timeSeriesClassification(folder);
  console.log(
    `${name}: ${timing.result.classifiedType} (${timing.result.confidence}); read ${timing.acquisitionMs.toFixed(0)} ms, classify ${timing.classifyUs.toFixed(0)} µs`,
  );
}
