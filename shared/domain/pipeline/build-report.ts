import { buildReport, type ReportInput } from '#shared/processing/report.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import { PIPELINE_ACTOR } from '#shared/domain/datasets/ports.ts';
import { assetKeys } from '#shared/domain/object-keys.ts';
import { isHeldForBurnedInText } from '#shared/schemas/api/datasets.ts';
import { reviewStudyClassifications } from './classify-series.ts';
import { loadDataset, type PipelineDeps, type StageInput } from './deps.ts';

/**
 * REPORT: the study review of the classifications first (classify-series.ts reviewStudyClassifications), then one PDF per dataset (study summary as far as the de-identification options keep it, the profile applied,
 * series table, thumbnails, quality figures). A series held for burned-in text is only counted: no row, no image.
 */
export async function buildDatasetReport(
  input: StageInput,
  deps: PipelineDeps & { directory: Pick<Directory, 'getHospital'> },
): Promise<void> {
  const dataset = await loadDataset(deps, input);
  // The classifications read together, now that every series' branch has ended, before the report counts the series
  // flagged for review.
  await reviewStudyClassifications(input, deps);
  const { hospitalId, datasetId } = input;
  const [series, assets, hospital] = await Promise.all([
    deps.datasets.listSeries(hospitalId, datasetId),
    deps.datasets.listAssets(hospitalId, datasetId),
    deps.directory.getHospital(hospitalId),
  ]);
  const ordered = series.filter((s) => !isHeldForBurnedInText(s)).sort((a, b) => a.seriesNumber - b.seriesNumber);
  const thumbnails: ReportInput['thumbnails'] = [];
  for (const asset of assets.filter((a) => a.type === 'THUMBNAIL')) {
    const s = ordered.find((x) => x.id === asset.seriesId);
    if (s) thumbnails.push({ seriesNumber: s.seriesNumber, png: await deps.objects.get('assets', asset.objectKey) });
  }
  // In series order, whatever order the repository lists assets in, so every runner draws the same page.
  thumbnails.sort((a, b) => a.seriesNumber - b.seriesNumber);
  const tract = assets.find((a) => a.type === 'TRACT');
  const surface = assets.find((a) => a.type === 'SURFACE');
  const quality: Record<string, string | number> = {
    filesAccepted: dataset.fileCount - (dataset.fileErrors?.length ?? 0),
    filesRejected: dataset.fileErrors?.length ?? 0,
    seriesCount: ordered.length,
    seriesHeldForBurnedInText: series.length - ordered.length,
    lowConfidenceSeries: ordered.filter((s) => s.lowConfidence).length,
    volumes: assets.filter((a) => a.type === 'VOLUME' && !a.metadata.derivedFrom).length,
  };
  if (surface) quality.surfaceVertices = Number(surface.metadata.vertices ?? 0);
  if (tract) {
    quality.streamlines = Number(tract.metadata.streamlines ?? 0);
    quality.meanFa = Number(Number(tract.metadata.meanFa ?? 0).toFixed(3));
  }
  const pdf = await buildReport({
    dataset: {
      id: dataset.id,
      patientAlias: dataset.patientAlias,
      studyType: dataset.studyType,
      studyDescription: dataset.studyDescription,
      clinicalIndication: dataset.clinicalIndication,
      orderingPhysician: dataset.orderingPhysician,
      department: dataset.department,
      createdAt: dataset.createdAt,
      ...(hospital ? { hospitalName: hospital.name } : {}),
    },
    anonymization: dataset.anonymization,
    series: ordered.map((s) => ({
      seriesNumber: s.seriesNumber,
      description: s.description,
      modality: s.modality,
      sliceCount: s.sliceCount,
      classifiedType: s.classification?.classifiedType ?? 'OTHER',
      confidence: s.classification?.confidence ?? 0,
      source: s.classification?.source ?? 'AI',
      bids: s.classification?.bids ?? { datatype: 'anat', suffix: 'T1w' },
    })),
    thumbnails,
    quality,
  });
  const key = assetKeys.report(hospitalId, datasetId);
  await deps.objects.put('assets', key, pdf, 'application/pdf');
  await deps.datasets.putAsset({
    id: 'report',
    datasetId,
    hospitalId,
    type: 'REPORT',
    label: 'Dataset report',
    byteSize: pdf.byteLength,
    mimeType: 'application/pdf',
    metadata: { reportVersion: 1, series: ordered.length },
    createdAt: deps.clock.now(),
    bucket: 'assets',
    objectKey: key,
  });
  await deps.audit.record({
    hospitalId,
    datasetId,
    action: 'REPORT_BUILT',
    ...PIPELINE_ACTOR,
    details: { runId: input.runId },
  });
}
