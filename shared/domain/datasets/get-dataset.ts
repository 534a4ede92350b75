import type { DatasetDetail } from '#shared/schemas/api/datasets.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { auditedRead } from '#shared/domain/audit/record-read.ts';
import type { DatasetRepository } from './ports.ts';
import type { AuditLog, Clock } from '#shared/domain/ports.ts';
import { presignedAssets } from './list-assets.ts';
import { loadReadableDataset, type ShareGrants } from './load-dataset.ts';
import { toDataset, toSeries } from './view.ts';

/**
 * The dataset with its series and processed assets (assets carry short-lived presigned URLs). The view is audited
 * (DATASET_VIEWED with the number of asset URLs issued), as is a refused one.
 */
export async function getDataset(
  datasetId: string,
  caller: Caller,
  deps: {
    datasets: DatasetRepository;
    objects: ObjectStore;
    directory: Directory;
    audit: AuditLog;
    clock: Clock;
    shares?: ShareGrants;
  },
): Promise<DatasetDetail> {
  return auditedRead(
    caller,
    deps,
    {
      action: 'DATASET_VIEWED',
      datasetId,
      details: (d) => ({ assetUrlsIssued: d.processedAssets.filter((a) => a.url).length }),
    },
    () => readDataset(datasetId, caller, deps),
  );
}

async function readDataset(
  datasetId: string,
  caller: Caller,
  deps: { datasets: DatasetRepository; objects: ObjectStore; directory: Directory; shares?: ShareGrants },
): Promise<DatasetDetail> {
  const record = await loadReadableDataset(caller, datasetId, deps);
  const [series, assets, hospital] = await Promise.all([
    deps.datasets.listSeries(caller.hospitalId, datasetId),
    presignedAssets(caller, record, deps),
    caller.hospitalName === undefined ? deps.directory.getHospital(caller.hospitalId) : undefined,
  ]);
  const hospitalName = caller.hospitalName ?? hospital?.name;
  return {
    ...toDataset(record),
    series: series.sort((a, b) => a.seriesNumber - b.seriesNumber).map(toSeries),
    processedAssets: assets,
    ...(hospitalName !== undefined ? { hospitalName } : {}),
  };
}
