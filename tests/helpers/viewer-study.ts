/**
 * A complete dataset with converted series, planted straight into a running twin's stores (as the pipeline leaves
 * one: the dataset item, one VOLUME asset per series and its NIfTI in the assets bucket), for the viewer's browser
 * tests and bench, which are about the viewer, not the pipeline.
 */
import { createAwsDeps } from '#functions/adapters/index.ts';
import { datasetPrefix } from '#shared/domain/object-keys.ts';
import { datasetRecord } from '#tests/helpers/datasets.ts';
import { apiFetch, signIn, TEST_DEMO_PASSWORD, type TestStack } from '#tests/helpers/local-stack.ts';

export const VIEWER_HOSPITAL = 'hosp-northside';
export const VIEWER_MEMBER = 'member@northside.demo.local';

export type PlantedSeries = {
  id: string;
  label: string;
  classifiedType?: string;
  nifti: Uint8Array;
  /** More asset metadata (e.g. the scanner's windowCenter / windowWidth). */
  metadata?: Record<string, unknown>;
};

/** Plants a COMPLETE dataset of the member's team with the given series; returns its id. */
export async function plantViewerStudy(
  stack: TestStack,
  studyDescription: string,
  series: PlantedSeries[],
): Promise<string> {
  const deps = await createAwsDeps();
  const token = await signIn(stack.url, VIEWER_MEMBER, TEST_DEMO_PASSWORD);
  const me = await (await apiFetch(stack.url, token, '/api/me')).json();
  const datasetId = `ds-viewer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const record = datasetRecord({
    id: datasetId,
    hospitalId: VIEWER_HOSPITAL,
    teamId: 'team-northside-neuroradiology',
    ownerUserId: me.user.id as string,
    studyDescription,
    seriesCount: series.length,
  });
  await deps.datasets.create(record);
  for (const [index, s] of series.entries()) {
    const objectKey = `${datasetPrefix(VIEWER_HOSPITAL, datasetId)}assets/${s.id}.nii.gz`;
    await deps.objects.put('assets', objectKey, s.nifti, 'application/gzip');
    await deps.datasets.putAsset({
      id: s.id,
      datasetId,
      hospitalId: VIEWER_HOSPITAL,
      seriesId: `series-${index + 1}`,
      type: 'VOLUME',
      label: s.label,
      byteSize: s.nifti.byteLength,
      mimeType: 'application/gzip',
      metadata: { volumeIndex: 0, ...(s.classifiedType ? { classifiedType: s.classifiedType } : {}), ...s.metadata },
      createdAt: new Date(Date.now() + index).toISOString(),
      bucket: 'assets',
      objectKey,
    });
  }
  return datasetId;
}
