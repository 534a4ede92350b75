import type { DatasetRecord } from '#shared/domain/datasets/ports.ts';
import type { OrganisationCounters, ReportCountItem, ReportCountTarget } from '#shared/domain/organisation/ports.ts';
import type { DatasetStatus } from '#shared/vocabulary/datasets.ts';

/**
 * The report counters (docs/domain.md#report-counters): one item per hospital and month and one per team and month,
 * keyed by the month the datasets were CREATED in. Each holds named counts (studies, by type, by status, bytes, per
 * creator, per team, the processing-time histogram; a team's item the same again per day) that move with UpdateItem
 * ADD where the dataset changes, so the reports and team analytics read a range's items, never its datasets.
 */
export type ReportCounts = Record<string, number>;

/** The scope of the hospital's own items; any other scope is a team id. */
export const HOSPITAL_SCOPE = 'hospital';
/** The team key of datasets without a team ("No team" on the reports page). */
export const NO_TEAM = '-';

export const counterName = {
  studies: 'studies',
  bytes: 'bytes',
  type: (type: string) => `type#${type}`,
  status: (status: string) => `status#${status}`,
  creator: (userId: string) => `creator#${userId}`,
  team: (teamId: string | null | undefined, figure: 'studies' | 'completed' | 'failed') =>
    `team#${teamId ?? NO_TEAM}#${figure}`,
  processing: (bucket: number) => `pm#${bucket}`,
  /** A name (not a count): the creator's display name, kept on the team's items for "member activity". */
  ownerName: (userId: string) => `owner#${userId}`,
};

/**
 * Upper bounds (minutes, inclusive) of the processing-time histogram's buckets; a last bucket holds everything above
 * the last bound. One-minute steps up to 10 minutes, then coarser: a percentile read from it is the upper bound of the
 * bucket the nearest rank falls in, so it is at most one bucket's width above the exact value (docs/domain.md#report-counters).
 */
export const PROCESSING_BUCKET_BOUNDS = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 90, 120, 180, 240, 360, 480, 720, 1440,
] as const;

/** The bucket of a duration in minutes: the first whose bound is at or above it; the overflow bucket past the last. */
export function processingBucket(minutes: number): number {
  const i = PROCESSING_BUCKET_BOUNDS.findIndex((bound) => minutes <= bound);
  return i < 0 ? PROCESSING_BUCKET_BOUNDS.length : i;
}

/** From the pipeline taking the study to its completion (or, for a study completed before those times were kept, from creation to its last change). */
export function processingMinutes(
  d: Pick<DatasetRecord, 'completedAt' | 'updatedAt' | 'processingStartedAt' | 'createdAt'>,
): number | undefined {
  const minutes =
    (Date.parse(d.completedAt ?? d.updatedAt) - Date.parse(d.processingStartedAt ?? d.createdAt)) / 60_000;
  return Number.isFinite(minutes) && minutes >= 0 ? minutes : undefined;
}

/**
 * Nearest-rank percentile read from the histogram's bucket counts: the bound of the bucket holding the rank (the last
 * bound for the overflow bucket); null when no study is counted.
 */
export function histogramPercentile(buckets: readonly number[], p: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i]!;
    if (seen >= rank) return PROCESSING_BUCKET_BOUNDS[Math.min(i, PROCESSING_BUCKET_BOUNDS.length - 1)]!;
  }
  return PROCESSING_BUCKET_BOUNDS.at(-1)!;
}

type Counted = Pick<
  DatasetRecord,
  | 'teamId'
  | 'ownerUserId'
  | 'studyType'
  | 'status'
  | 'sizeBytes'
  | 'createdAt'
  | 'updatedAt'
  | 'processingStartedAt'
  | 'completedAt'
>;

/** What one live dataset adds to each of its report items (`sign` -1 takes it away). */
export function reportContribution(d: Counted, sign: 1 | -1): ReportCounts {
  const counts: ReportCounts = {
    [counterName.studies]: sign,
    [counterName.type(d.studyType)]: sign,
    [counterName.bytes]: sign * Math.max(0, d.sizeBytes),
    [counterName.creator(d.ownerUserId)]: sign,
    ...statusCounts(d, d.status, sign),
    [counterName.team(d.teamId, 'studies')]: sign,
  };
  return counts;
}

/** The counts that follow the status: by status, the team's completed and failed, and the processing histogram. */
function statusCounts(d: Counted, status: DatasetStatus, sign: 1 | -1): ReportCounts {
  const counts: ReportCounts = { [counterName.status(status)]: sign };
  if (status === 'FAILED') counts[counterName.team(d.teamId, 'failed')] = sign;
  if (status === 'COMPLETE') {
    counts[counterName.team(d.teamId, 'completed')] = sign;
    const minutes = processingMinutes(d);
    if (minutes !== undefined) counts[counterName.processing(processingBucket(minutes))] = sign;
  }
  return counts;
}

/**
 * A status change of a dataset (`d` as it is after it, whose times are those it completed with when it leaves
 * COMPLETE): out of the old status, into the new.
 */
export function statusChangeCounts(d: Counted, from: DatasetStatus, to: DatasetStatus): ReportCounts {
  return sumCounts(statusCounts(d, from, -1), statusCounts(d, to, 1));
}

export function sumCounts(...all: ReportCounts[]): ReportCounts {
  const out: ReportCounts = {};
  for (const counts of all) for (const [name, n] of Object.entries(counts)) out[name] = (out[name] ?? 0) + n;
  for (const [name, n] of Object.entries(out)) if (n === 0) delete out[name];
  return out;
}

/** The items a dataset's counts go to: the hospital's month and, with a team, the team's month. */
export function reportTargets(d: Pick<DatasetRecord, 'teamId' | 'createdAt'>): ReportCountTarget[] {
  const month = d.createdAt.slice(0, 7);
  return d.teamId
    ? [
        { scope: HOSPITAL_SCOPE, period: month },
        { scope: d.teamId, period: month },
      ]
    : [{ scope: HOSPITAL_SCOPE, period: month }];
}

/**
 * The hospital's month is kept on three items, so the counts every status change moves sit on a small item and the
 * ones that grow with the staff and the teams on others, written less often (a write costs the item's size): the
 * studies, types, statuses, bytes and histogram on `hospital`; the creators on `hospital:creators` (moved when a
 * dataset is created, binned or restored); the per-team counts on `hospital:teams`.
 */
export const HOSPITAL_PARTS = [HOSPITAL_SCOPE, `${HOSPITAL_SCOPE}:creators`, `${HOSPITAL_SCOPE}:teams`] as const;

function hospitalPart(name: string): string {
  if (name.startsWith(counterName.creator(''))) return HOSPITAL_PARTS[1];
  if (name.startsWith('team#')) return HOSPITAL_PARTS[2];
  return HOSPITAL_PARTS[0];
}

/** The writes of a dataset's counts: each item (the hospital's parts, the team's month) with the counts it keeps. */
function reportWrites(
  d: Pick<DatasetRecord, 'teamId' | 'createdAt'>,
  counts: ReportCounts,
): { target: ReportCountTarget; counts: ReportCounts }[] {
  const writes: { target: ReportCountTarget; counts: ReportCounts }[] = [];
  for (const target of reportTargets(d)) {
    if (target.scope !== HOSPITAL_SCOPE) {
      writes.push({ target, counts: countsFor(d, counts) });
      continue;
    }
    const parts = new Map<string, ReportCounts>();
    for (const [name, n] of Object.entries(counts)) {
      const part = hospitalPart(name);
      parts.set(part, { ...parts.get(part), [name]: n });
    }
    for (const [scope, some] of parts) writes.push({ target: { scope, period: target.period }, counts: some });
  }
  return writes;
}

/** The prefix of a count kept per day on a team's month item: `d#<yyyy-mm-dd>#<name>`. */
export const dayCounter = (day: string, name: string) => `d#${day}#${name}`;
const DAY_COUNTER = /^d#(\d{4}-\d{2}-\d{2})#(.+)$/;

/** A day's count read back from a team's month item: its day and name, or undefined for a month's count. */
export function parseDayCounter(name: string): { day: string; name: string } | undefined {
  const match = DAY_COUNTER.exec(name);
  return match ? { day: match[1]!, name: match[2]! } : undefined;
}

/**
 * What goes to a team's month item: the counts, and the same counts again under the creation day, so team analytics
 * answers a period of days from the months it touches.
 */
function countsFor(d: Pick<DatasetRecord, 'createdAt'>, counts: ReportCounts) {
  const day = d.createdAt.slice(0, 10);
  return {
    ...counts,
    ...Object.fromEntries(Object.entries(counts).map(([name, n]) => [dayCounter(day, name), n])),
  };
}

/** ADDs `counts` to every report item of the dataset (nothing when they cancel out). */
export async function moveReportCounts(
  organisation: Pick<OrganisationCounters, 'addReportCounts'>,
  d: Pick<DatasetRecord, 'hospitalId' | 'teamId' | 'createdAt' | 'ownerUserId' | 'ownerName'>,
  counts: ReportCounts,
): Promise<void> {
  const deltas = sumCounts(counts);
  if (Object.keys(deltas).length === 0) return;
  // The creator's name goes with their first count on the team's items ("member activity").
  const names = deltas[counterName.creator(d.ownerUserId)]
    ? { [counterName.ownerName(d.ownerUserId)]: d.ownerName }
    : {};
  for (const write of reportWrites(d, deltas))
    await organisation.addReportCounts(
      d.hospitalId,
      write.target,
      write.counts,
      write.target.scope === d.teamId ? names : {},
    );
}

/**
 * Every report item of a set of live datasets, counted afresh (a recount is SET, not ADDed, so running it twice
 * writes the same: docs/domain.md#report-counters).
 */
export function recountReportItems(
  datasets: readonly (Counted & Pick<DatasetRecord, 'ownerName'>)[],
): ReportCountItem[] {
  const items = new Map<string, ReportCountItem>();
  for (const d of datasets) {
    for (const write of reportWrites(d, reportContribution(d, 1))) {
      const key = `${write.target.scope}|${write.target.period}`;
      const item = items.get(key) ?? { ...write.target, counts: {}, names: {} };
      for (const [name, n] of Object.entries(write.counts)) item.counts[name] = (item.counts[name] ?? 0) + n;
      if (write.target.scope === d.teamId) item.names[counterName.ownerName(d.ownerUserId)] = d.ownerName;
      items.set(key, item);
    }
  }
  for (const item of items.values()) item.counts = sumCounts(item.counts);
  return [...items.values()];
}
