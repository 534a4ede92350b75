import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { Directory, HospitalRecord } from '#shared/domain/auth/ports.ts';
import type { Clock } from '#shared/domain/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import { BYTES_PER_GB } from '#shared/domain/settings/enforce.ts';
import { policyFor, type PolicyDeps } from '#shared/domain/settings/policies.ts';
import type { HospitalUsage, Usage, UsageQuery } from '#shared/schemas/api/usage.ts';
import { monthlyInvoice, nextMonthStart, planOf, usageBadge, usageHealth } from './billing.ts';

export type UsageDeps = PolicyDeps & {
  directory: Pick<Directory, 'getHospital'>;
  organisation: Pick<OrganisationStore, 'listHospitals' | 'listTeams' | 'listUsage'>;
  clock: Clock;
};

const HOSPITAL_PAGE = 100;
const TEAMS_SHOWN = 100;
const DAY_MS = 86_400_000;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Seconds of the month that have passed (all of it for a past month, none for a future one). */
export function monthSeconds(month: string, now: string): number {
  const start = Date.parse(`${month}-01T00:00:00.000Z`);
  const end = Date.parse(`${nextMonthStart(month)}T00:00:00.000Z`);
  return Math.max(0, (Math.min(end, Date.parse(now)) - start) / 1000);
}

/**
 * Usage and billing (docs/domain.md#usage-and-billing): storage from the hospital's stored-bytes counter against the
 * storage cap of its policy; compute from the pipeline runs' daily meters against what its run slots (queue
 * concurrency) could have run in the month so far; health bands, badge, next bill and the month's invoice.
 */
export async function getUsage(query: UsageQuery, caller: Caller, deps: UsageDeps): Promise<Usage> {
  const now = deps.clock.now();
  const month = query.month ?? now.slice(0, 7);
  const hospitals = await hospitalsOf(query.hospitalId, caller, deps);
  return {
    month,
    generatedAt: now,
    hospitals: await Promise.all(hospitals.map((h) => hospitalUsage(h, month, now, deps))),
  };
}

async function hospitalsOf(requested: string | undefined, caller: Caller, deps: UsageDeps): Promise<HospitalRecord[]> {
  if (caller.role === 'HOSPITAL_ADMIN') {
    if (requested && requested !== caller.hospitalId) throw new NotFoundError('HOSPITAL_NOT_FOUND');
    const own = await deps.directory.getHospital(caller.hospitalId);
    if (!own) throw new NotFoundError('HOSPITAL_NOT_FOUND');
    return [own];
  }
  if (caller.role !== 'SUPER_ADMIN') throw new AccessDeniedError();
  if (requested) {
    const one = await deps.directory.getHospital(requested);
    if (!one) throw new NotFoundError('HOSPITAL_NOT_FOUND');
    return [one];
  }
  const all: HospitalRecord[] = [];
  let startKey: Record<string, string> | undefined;
  do {
    const page = await deps.organisation.listHospitals({ limit: HOSPITAL_PAGE, startKey });
    all.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return all;
}

async function hospitalUsage(h: HospitalRecord, month: string, now: string, deps: UsageDeps): Promise<HospitalUsage> {
  const from = `${month}-01`;
  const to = `${month}-31`;
  const [policy, days, teams] = await Promise.all([
    policyFor(h.id, null, deps),
    deps.organisation.listUsage(h.id, 'hospital', from, to),
    deps.organisation.listTeams({ hospitalId: h.id, includeArchived: false, limit: TEAMS_SHOWN }),
  ]);
  const storageUsed = Math.max(0, h.storageUsedBytes ?? 0);
  const storageLimit = policy.storageCompute.storageCapGB * BYTES_PER_GB;
  const storagePercent = storageLimit > 0 ? round1((storageUsed / storageLimit) * 100) : 0;
  const computeSeconds = days.reduce((n, d) => n + d.computeSeconds, 0);
  const computeLimit = policy.storageCompute.computeThrottles.queueConcurrency * monthSeconds(month, now);
  const computePercent = computeLimit > 0 ? round1((computeSeconds / computeLimit) * 100) : 0;
  const nextBillDate = nextMonthStart(now.slice(0, 7));
  return {
    hospitalId: h.id,
    hospitalName: h.name,
    plan: planOf(h.subscriptionPlan),
    storage: { used: storageUsed, limit: storageLimit, percent: storagePercent, health: usageHealth(storagePercent) },
    compute: {
      used: computeSeconds,
      limit: computeLimit,
      percent: computePercent,
      health: usageHealth(computePercent),
      gbSeconds: days.reduce((n, d) => n + d.gbSeconds, 0),
      runs: days.reduce((n, d) => n + d.runs, 0),
    },
    badge: usageBadge(storagePercent, computePercent),
    days,
    teams: await Promise.all(
      teams.items.map(async (t) => ({
        teamId: t.id,
        teamName: t.name,
        storageUsedBytes: Math.max(0, t.storageUsedBytes ?? 0),
        days: await deps.organisation.listUsage(h.id, t.id, from, to),
      })),
    ),
    nextBillDate,
    daysToNextBill: Math.max(0, Math.ceil((Date.parse(`${nextBillDate}T00:00:00.000Z`) - Date.parse(now)) / DAY_MS)),
    invoice: monthlyInvoice(h, month),
  };
}
