import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { startHospitalAdminJob } from '#shared/domain/jobs/hospital-job.ts';
import type { JobKindHandler, JobRunnerDeps, JobStartDeps } from '#shared/domain/jobs/runner.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { JobAccepted } from '#shared/schemas/api/jobs.ts';
import { HOSPITAL_PARTS, recountReportItems } from './counters.ts';

/** Months one chunk of the recount takes (each item: one month's datasets read, its items replaced). */
export const REPORT_RECOUNT_CHUNK = 3;
const PAGE = 100;

/**
 * Recounts the report items of a hospital from its datasets (docs/domain.md#report-counters): a job (docs/jobs.md) a
 * hospital admin starts once after the counters are introduced, `POST /api/reports/recount`; 202 with the job.
 */
export function startReportRecount(caller: Caller, deps: JobStartDeps): Promise<JobAccepted> {
  return startHospitalAdminJob('REPORT_COUNTERS', caller, deps);
}

type RecountDeps = JobRunnerDeps & {
  datasets: Pick<DatasetRepository, 'list'>;
  directory: Pick<Directory, 'getHospital'>;
  organisation: Pick<OrganisationStore, 'listTeams' | 'putReportCounts' | 'deleteReportCounts'>;
};

/** Every month (yyyy-mm) from the month of `from` to the month of `to`, oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  const d = new Date(`${from.slice(0, 7)}-01T00:00:00.000Z`);
  while (d.toISOString().slice(0, 7) <= to.slice(0, 7)) {
    months.push(d.toISOString().slice(0, 7));
    d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return months;
}

/**
 * One month recounted: its live datasets read through the by-creation index (that month's key range only), its
 * hospital item and each team's item put whole from the recount, and a team's item that no dataset counts removed.
 * Idempotent: run again, it writes the same.
 */
export async function recountMonth(hospitalId: string, month: string, deps: RecountDeps): Promise<number> {
  const next = new Date(`${month}-01T00:00:00.000Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const datasets: DatasetRecord[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.datasets.list({
      hospitalId,
      createdFrom: `${month}-01T00:00:00.000Z`,
      createdBefore: next.toISOString(),
      limit: PAGE,
      startKey,
    });
    datasets.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  const items = recountReportItems(datasets);
  const scopes = new Set(items.map((item) => item.scope));
  for (const item of items) await deps.organisation.putReportCounts(hospitalId, item);
  const stale: string[] = [...HOSPITAL_PARTS];
  let teamKey: Record<string, string> | undefined;
  do {
    const page = await deps.organisation.listTeams({
      hospitalId,
      includeArchived: true,
      limit: PAGE,
      startKey: teamKey,
    });
    stale.push(...page.items.map((team) => team.id));
    teamKey = page.lastKey;
  } while (teamKey);
  for (const scope of stale.filter((s) => !scopes.has(s)))
    await deps.organisation.deleteReportCounts(hospitalId, { scope, period: month });
  return datasets.length;
}

/**
 * The recount's kind: the items are the months from the hospital's creation to now (no dataset is older than its
 * hospital), a chunk a few of them; the cursor is the next month. A dataset created or changed in a month while that
 * month is being recounted may be counted as it was read; running the job again settles it.
 */
export const reportCountersJob: JobKindHandler<RecountDeps> = {
  itemsAtOnce: 1,
  async chunk(job, cursor, deps) {
    const hospital = await deps.directory.getHospital(job.hospitalId);
    const all = monthsBetween(hospital?.createdAt || deps.clock.now(), deps.clock.now());
    const start = cursor ? all.indexOf(cursor) : 0;
    const months = start < 0 ? [] : all.slice(start, start + REPORT_RECOUNT_CHUNK);
    return {
      items: months.map((month, i) => ({ seq: (start < 0 ? 0 : start) + i + 1, subject: month, value: month })),
      next: all[start + REPORT_RECOUNT_CHUNK] ?? null,
      total: all.length,
    };
  },
  async run(job, item, deps) {
    await recountMonth(job.hospitalId, item.value as string, deps);
    return { outcome: 'SUCCEEDED' };
  },
};
