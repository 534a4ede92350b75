import { createChainedMemoryAuditLog } from '#shared/domain/audit/memory-audit-log.ts';
import type { HospitalRecord } from '#shared/domain/auth/ports.ts';
import type { AssetRecord, DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import { ConflictError, NotFoundError } from '#shared/domain/errors.ts';
import type { StageDeps } from '#shared/domain/pipeline/stages.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';

/**
 * The repository ports of the pipeline stages held in memory for one `iws process` run: one dataset, its series,
 * assets and audit events, with the conditional status writes of the DynamoDB adapter.
 */
export function createMemoryDatasetRepository(audit: AuditLog): DatasetRepository & {
  series: Map<string, SeriesRecord>;
  assets: Map<string, AssetRecord>;
} {
  const rows = new Map<string, DatasetRecord>();
  const series = new Map<string, SeriesRecord>();
  const assets = new Map<string, AssetRecord>();
  const key = (hospitalId: string, datasetId: string) => `${hospitalId}/${datasetId}`;
  const update = (
    hospitalId: string,
    datasetId: string,
    fields: Partial<DatasetRecord>,
    expected: readonly string[],
  ) => {
    const current = rows.get(key(hospitalId, datasetId));
    if (!current) throw new NotFoundError('DATASET_NOT_FOUND');
    if (!expected.includes(current.status)) throw new ConflictError();
    const next = { ...current, ...fields } as DatasetRecord;
    for (const [name, value] of Object.entries(fields))
      if (value === undefined) delete (next as Record<string, unknown>)[name];
    rows.set(key(hospitalId, datasetId), next);
    return next;
  };
  const children = <T extends { hospitalId: string; datasetId: string }>(map: Map<string, T>, h: string, d: string) =>
    [...map.values()].filter((item) => item.hospitalId === h && item.datasetId === d);
  return {
    series,
    assets,
    async get(hospitalId, datasetId) {
      return rows.get(key(hospitalId, datasetId));
    },
    async create(dataset) {
      if (rows.has(key(dataset.hospitalId, dataset.id))) throw new ConflictError();
      rows.set(key(dataset.hospitalId, dataset.id), dataset);
    },
    async update(hospitalId, datasetId, fields, expected) {
      return update(hospitalId, datasetId, fields, expected);
    },
    async transition(hospitalId, datasetId, from, to, fields = {}, entry) {
      const next = update(hospitalId, datasetId, { ...fields, status: to }, from);
      if (entry) await audit.record(entry);
      return next;
    },
    async list(query) {
      return { items: [...rows.values()].filter((d) => d.hospitalId === query.hospitalId).slice(0, query.limit) };
    },
    async listSeries(hospitalId, datasetId) {
      return children(series, hospitalId, datasetId);
    },
    async putSeries(record) {
      series.set(`${key(record.hospitalId, record.datasetId)}/${record.id}`, record);
    },
    async updateSeries(hospitalId, datasetId, seriesId, fields) {
      const current = series.get(`${key(hospitalId, datasetId)}/${seriesId}`);
      if (!current) throw new NotFoundError('SERIES_NOT_FOUND');
      const next = { ...current, ...fields };
      series.set(`${key(hospitalId, datasetId)}/${seriesId}`, next);
      return next;
    },
    async listAssets(hospitalId, datasetId) {
      return children(assets, hospitalId, datasetId);
    },
    async putAsset(asset) {
      assets.set(`${key(asset.hospitalId, asset.datasetId)}/${asset.id}`, asset);
    },
    async putAssets(list) {
      for (const asset of list) assets.set(`${key(asset.hospitalId, asset.datasetId)}/${asset.id}`, asset);
    },
    async deleteAll(hospitalId, datasetId) {
      const doomed = [
        ...[...series.entries()].filter(([, s]) => s.hospitalId === hospitalId && s.datasetId === datasetId),
        ...[...assets.entries()].filter(([, a]) => a.hospitalId === hospitalId && a.datasetId === datasetId),
      ].map(([k]) => k);
      doomed.forEach((k) => (series.delete(k), assets.delete(k)));
      return doomed.length + (rows.delete(key(hospitalId, datasetId)) ? 1 : 0);
    },
  };
}

export function createMemoryAuditLog(): ReturnType<typeof createChainedMemoryAuditLog> {
  return createChainedMemoryAuditLog({ newId: (count) => String(count + 1), now: () => new Date().toISOString() });
}

/** No upload session exists on this path: the files are put straight into the uploads bucket. */
const NO_UPLOADS: UploadRepository = {
  createSession: async () => {},
  getSession: async () => undefined,
  setSessionStatus: async () => {},
};

/** Every port the pipeline stages need, for one local run over `objects`. */
export function createLocalStageDeps(options: {
  objects: ObjectStore;
  secret: string;
  hospital?: HospitalRecord;
}): StageDeps & {
  datasets: ReturnType<typeof createMemoryDatasetRepository>;
  audit: ReturnType<typeof createMemoryAuditLog>;
} {
  const audit = createMemoryAuditLog();
  return {
    datasets: createMemoryDatasetRepository(audit),
    audit,
    objects: options.objects,
    uploads: NO_UPLOADS,
    clock: { now: () => new Date().toISOString() },
    pseudonymSecret: async () => options.secret,
    directory: { getHospital: async (id) => (options.hospital?.id === id ? options.hospital : undefined) },
  };
}
