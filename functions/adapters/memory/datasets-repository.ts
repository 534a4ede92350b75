import type { AssetRecord, DatasetRecord, DatasetRepository, SeriesRecord } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, PageTokens } from '#shared/domain/ports.ts';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors.ts';

/**
 * The dataset repository in memory, with the DynamoDB adapter's contract: conditional status writes (a transition from
 * a status the row is not in is a ConflictError), the list filters and newest-first pages, and `audit` written with a
 * transition as the adapter writes it in the same transaction.
 */
export function createMemoryDatasetRepository(audit?: AuditLog): DatasetRepository & {
  rows: Map<string, DatasetRecord>;
  series: Map<string, SeriesRecord>;
  assets: Map<string, AssetRecord>;
} {
  const rows = new Map<string, DatasetRecord>();
  const series = new Map<string, SeriesRecord>();
  const assets = new Map<string, AssetRecord>();
  const k = (h: string, d: string) => `${h}/${d}`;
  const update = (h: string, d: string, fields: Partial<DatasetRecord>, expected: readonly string[]) => {
    const current = rows.get(k(h, d));
    if (!current || current.deletedAt) throw new NotFoundError('DATASET_NOT_FOUND');
    if (!expected.includes(current.status)) throw new ConflictError();
    const next = { ...current, ...fields } as DatasetRecord;
    for (const [key, value] of Object.entries(fields))
      if (value === undefined) delete (next as Record<string, unknown>)[key];
    rows.set(k(h, d), next);
    return next;
  };
  return {
    rows,
    series,
    assets,
    async get(h, d) {
      const row = rows.get(k(h, d));
      return row?.deletedAt ? undefined : row;
    },
    async getInBin(h, d) {
      const row = rows.get(k(h, d));
      return row?.deletedAt ? row : undefined;
    },
    async moveToBin(dataset, bin) {
      const current = rows.get(k(dataset.hospitalId, dataset.id));
      if (!current || current.deletedAt || current.legalHold || current.status !== dataset.status)
        throw new ConflictError();
      const next = { ...current, ...bin };
      rows.set(k(dataset.hospitalId, dataset.id), next);
      return next;
    },
    async restoreFromBin(h, d) {
      const current = rows.get(k(h, d));
      if (!current?.deletedAt) throw new NotFoundError('DATASET_NOT_FOUND');
      const {
        deletedAt: _a,
        purgeAfter: _p,
        deletedByUserId: _u,
        deletedByName: _n,
        deletionReason: _r,
        ...live
      } = current;
      rows.set(k(h, d), live);
      return live;
    },
    async listBin(q) {
      // Keyed like the index (`<purgeAfter>#<id>`), so a page goes on after its last key even once that was purged.
      const sk = (d: DatasetRecord) => `${d.purgeAfter}#${d.id}`;
      const all = [...rows.values()]
        .filter((d) => d.hospitalId === q.hospitalId && d.deletedAt && (!q.purgeBy || sk(d) <= q.purgeBy))
        .filter((d) => !q.startKey || sk(d) > q.startKey.sk!)
        .sort((a, b) => sk(a).localeCompare(sk(b)));
      const items = all.slice(0, q.limit);
      return { items, ...(q.limit < all.length ? { lastKey: { sk: sk(items.at(-1)!) } } : {}) };
    },
    async setLegalHold(h, d, hold) {
      const current = rows.get(k(h, d));
      if (!current || current.deletedAt) throw new NotFoundError('DATASET_NOT_FOUND');
      const next = { ...current, legalHold: hold };
      if (!hold) delete next.legalHold;
      rows.set(k(h, d), next);
      return next;
    },
    async create(d) {
      if (rows.has(k(d.hospitalId, d.id))) throw new ConflictError();
      rows.set(k(d.hospitalId, d.id), d);
    },
    async update(h, d, f, e) {
      return update(h, d, f, e);
    },
    async transition(h, d, from, to, f = {}, entry) {
      const next = update(h, d, { ...f, status: to }, from);
      if (entry) await audit?.record(entry);
      return next;
    },
    async list(q) {
      const matches = (d: DatasetRecord) =>
        !d.deletedAt &&
        (q.teamId === undefined || d.teamId === q.teamId) &&
        (!q.ownerUserId || d.ownerUserId === q.ownerUserId) &&
        (!q.status || d.status === q.status) &&
        (!q.createdFrom || d.createdAt >= q.createdFrom) &&
        (!q.createdBefore || d.createdAt < q.createdBefore) &&
        (!q.search || d.searchText.includes(q.search) || d.patientAlias === q.searchAlias);
      // Positions are taken among the hospital's datasets in the bin too, so a page goes on after its last key even
      // once that one left the list (moved to the bin), as the table's index does.
      const ordered = [...rows.values()]
        .filter((d) => d.hospitalId === q.hospitalId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const start = q.startKey ? ordered.findIndex((d) => d.id === q.startKey!.id) + 1 : 0;
      const all = ordered.slice(start).filter(matches);
      const items = all.slice(0, q.limit);
      return { items, ...(q.limit < all.length ? { lastKey: { id: items.at(-1)!.id } } : {}) };
    },
    async listSeries(h, d) {
      return [...series.values()].filter((s) => s.hospitalId === h && s.datasetId === d);
    },
    async putSeries(s) {
      series.set(`${s.hospitalId}/${s.datasetId}/${s.id}`, s);
    },
    async updateSeries(h, d, id, f) {
      const current = series.get(`${h}/${d}/${id}`);
      if (!current) throw new NotFoundError('SERIES_NOT_FOUND');
      const next = { ...current, ...f };
      series.set(`${h}/${d}/${id}`, next);
      return next;
    },
    async listAssets(h, d) {
      return [...assets.values()].filter((a) => a.hospitalId === h && a.datasetId === d);
    },
    async putAsset(a) {
      assets.set(`${a.hospitalId}/${a.datasetId}/${a.id}`, a);
    },
    async putAssets(list) {
      for (const a of list) assets.set(`${a.hospitalId}/${a.datasetId}/${a.id}`, a);
    },
    async deleteAll(h, d) {
      let n = rows.delete(k(h, d)) ? 1 : 0;
      for (const map of [series, assets] as Map<string, unknown>[])
        for (const key of [...map.keys()])
          if (key.startsWith(`${h}/${d}/`)) {
            map.delete(key);
            n++;
          }
      return n;
    },
  };
}

/** Tokens are the scope plus the key in clear; opening checks the scope, like the sealed adapter does. */
export const memoryPageTokens: PageTokens = {
  seal: async (scope, key) => JSON.stringify({ scope, key }),
  open: async (scope, token) => {
    const parsed = JSON.parse(token) as { scope: string; key: Record<string, string> };
    if (parsed.scope !== scope) throw new ValidationError();
    return parsed.key;
  },
};
