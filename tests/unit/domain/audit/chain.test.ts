import { describe, expect, it } from 'vitest';
import {
  canonicalAuditEvent,
  canonicalJson,
  chainNext,
  EMPTY_HEAD,
  GENESIS_HASH,
  verifyChain,
  type ChainedAuditEvent,
} from '#shared/domain/audit/chain.ts';
import { exportAuditCsv, searchAudit, verifyAuditTrail } from '#shared/domain/audit/audit-trail.ts';
import { getCompliance } from '#shared/domain/audit/compliance.ts';
import {
  complianceDeltas,
  countSeriesRelease,
  movePatientShareCounters,
  moveUserCounters,
} from '#shared/domain/dashboards/counters.ts';
import { moveToRecycleBin } from '#shared/domain/datasets/delete-dataset.ts';
import { restoreDataset } from '#shared/domain/datasets/recycle-bin.ts';
import { releaseSeries } from '#shared/domain/datasets/release-series.ts';
import type { SeriesRecord } from '#shared/domain/datasets/ports.ts';
import { countSignIn } from '#shared/domain/audit/sign-ins.ts';
import { getDataset } from '#shared/domain/datasets/get-dataset.ts';
import { listAssets } from '#shared/domain/datasets/list-assets.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';
import { getReports, percentile, rangeStart } from '#shared/domain/reports/reports.ts';
import { counterName, moveReportCounts } from '#shared/domain/reports/counters.ts';
import { changeStatus } from '#shared/domain/datasets/change-status.ts';
import { AccessDeniedError, NotFoundError } from '#shared/domain/errors.ts';
import type { AuditEntry } from '#shared/domain/ports.ts';
import { policyFor } from '#shared/domain/settings/policies.ts';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import { createMemoryShareStore } from '#functions/adapters/memory/shares-store.ts';
import { caller, fakeDirectory, NEW_DATASET, ports } from '#tests/unit/domain/fakes.ts';

const entry = (n: number, hospitalId = 'h1'): AuditEntry => ({
  hospitalId,
  action: 'DATASET_VIEWED',
  actorUserId: `u${n}`,
  actorName: 'Pat Lead',
  datasetId: `d${n}`,
  details: { n },
});

async function* pagesOf(events: ChainedAuditEvent[], size = 2) {
  for (let i = 0; i < events.length; i += size) yield events.slice(i, i + size);
}

async function chainOf(count: number): Promise<ChainedAuditEvent[]> {
  const events: ChainedAuditEvent[] = [];
  let head = EMPTY_HEAD;
  for (let n = 1; n <= count; n++) {
    const event = await chainNext(head, entry(n), `e${n}`, `2026-01-01T00:00:0${n}.000Z`);
    events.push(event);
    head = { seq: event.seq, hash: event.hash };
  }
  return events;
}

const headOf = (events: ChainedAuditEvent[]) =>
  events.length ? { seq: events.at(-1)!.seq, hash: events.at(-1)!.hash } : EMPTY_HEAD;

describe('canonical serialisation', () => {
  it('sorts keys at every level and leaves undefined out, so equal events serialise equally', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('covers actor, hospital, action, targets, time, outcome, details and the link', async () => {
    const [event] = await chainOf(1);
    const text = canonicalAuditEvent(event!);
    for (const part of ['"actorUserId":"u1"', '"hospitalId":"h1"', '"action":"DATASET_VIEWED"', '"datasetId":"d1"'])
      expect(text).toContain(part);
    expect(text).toContain('"outcome":"SUCCESS"');
    expect(text).toContain(`"prevHash":"${GENESIS_HASH}"`);
    expect(event!.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verifyChain', () => {
  it('verifies an intact chain across pages', async () => {
    const events = await chainOf(5);
    expect(await verifyChain(pagesOf(events), headOf(events))).toEqual({ verified: true, checkedEvents: 5 });
    expect(await verifyChain(pagesOf([]), undefined)).toEqual({ verified: true, checkedEvents: 0 });
  });

  it('finds an altered event (its hash no longer matches its content)', async () => {
    const events = await chainOf(4);
    events[2] = { ...events[2]!, actorUserId: 'someone-else' };
    const result = await verifyChain(pagesOf(events), headOf(events));
    expect(result).toMatchObject({ verified: false, checkedEvents: 2, brokenAt: { seq: 3, reason: 'HASH_MISMATCH' } });
  });

  it('finds an altered event whose hash was recomputed (the next link no longer matches)', async () => {
    const events = await chainOf(4);
    const { hash: _old, ...rest } = { ...events[1]!, details: { n: 99 } };
    const forged = await chainNext({ seq: 1, hash: events[0]!.hash }, rest, rest.id, rest.at);
    events[1] = forged;
    const result = await verifyChain(pagesOf(events), headOf(events));
    expect(result.brokenAt).toMatchObject({ seq: 3, reason: 'LINK_MISMATCH' });
  });

  it('finds a removed event (a gap in the positions) and a removed tail (the head points past it)', async () => {
    const events = await chainOf(4);
    const head = headOf(events);
    expect((await verifyChain(pagesOf([events[0]!, events[2]!, events[3]!]), head)).brokenAt).toMatchObject({
      seq: 2,
      reason: 'MISSING_EVENT',
    });
    expect((await verifyChain(pagesOf(events.slice(0, 3)), head)).brokenAt).toMatchObject({
      reason: 'HEAD_MISMATCH',
    });
  });
});

describe('the chained audit log', () => {
  it('gives concurrent appends consecutive positions, each linked to the one before (no fork)', async () => {
    const p = ports();
    await Promise.all(Array.from({ length: 20 }, (_, i) => p.audit.record(entry(i + 1))));
    await p.audit.record(entry(1, 'h2'));
    const h1 = p.audit.events.filter((e) => e.hospitalId === 'h1');
    expect(h1.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(p.audit.events.find((e) => e.hospitalId === 'h2')!.seq).toBe(1);
    const admin = caller('HOSPITAL_ADMIN');
    const deps = { ...p, directory: fakeDirectory() };
    expect(await verifyAuditTrail({}, admin, deps)).toMatchObject({ verified: true, checkedEvents: 20 });
  });

  it('verify reports the first broken link after an event is edited, and keeps the outcome on the head', async () => {
    const p = ports();
    for (let n = 1; n <= 5; n++) await p.audit.record(entry(n));
    p.audit.events[3]!.details = { n: 'edited' };
    const deps = { ...p, directory: fakeDirectory() };
    const result = await verifyAuditTrail({}, caller('HOSPITAL_ADMIN'), deps);
    expect(result).toMatchObject({ verified: false, checkedEvents: 3, brokenAt: { seq: 4 }, at: p.clock.now() });
    expect((await p.audit.head('h1'))!.lastVerification).toMatchObject({ verified: false, brokenAtSeq: 4 });
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'AUDIT_CHAIN_VERIFIED', outcome: 'FAILURE' });
  });
});

describe('audit scope, search and export', () => {
  it('lets a hospital admin read their own log only (another hospital is 404) and the super admin any', async () => {
    const p = ports();
    const deps = { ...p, directory: fakeDirectory() };
    await p.audit.record(entry(1, 'h2'));
    const admin = caller('HOSPITAL_ADMIN');
    await expect(searchAudit({ limit: 50, hospitalId: 'h2' }, admin, deps)).rejects.toBeInstanceOf(NotFoundError);
    await expect(searchAudit({ limit: 50 }, caller('TEAM_LEAD'), deps)).rejects.toBeInstanceOf(AccessDeniedError);
    const superAdmin = caller('SUPER_ADMIN', { hospitalId: 'system' });
    expect((await searchAudit({ limit: 50, hospitalId: 'h2' }, superAdmin, deps)).items).toHaveLength(1);
    await expect(searchAudit({ limit: 50, hospitalId: 'nope' }, superAdmin, deps)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('searches by actor, target, action and period, newest first, with sealed continuation tokens', async () => {
    const p = ports();
    const deps = { ...p, directory: fakeDirectory() };
    for (let n = 1; n <= 5; n++) await p.audit.record({ ...entry(n), at: `2026-01-0${n}T10:00:00.000Z` });
    const admin = caller('HOSPITAL_ADMIN');
    const first = await searchAudit({ limit: 2 }, admin, deps);
    expect(first.items.map((e) => e.actorUserId)).toEqual(['u5', 'u4']);
    const second = await searchAudit({ limit: 2, nextToken: first.nextToken! }, admin, deps);
    expect(second.items.map((e) => e.actorUserId)).toEqual(['u3', 'u2']);
    await expect(searchAudit({ limit: 2, action: 'X', nextToken: first.nextToken! }, admin, deps)).rejects.toThrow();
    expect((await searchAudit({ limit: 50, actor: 'u2' }, admin, deps)).items).toHaveLength(1);
    expect((await searchAudit({ limit: 50, target: 'd3' }, admin, deps)).items[0]!.actorUserId).toBe('u3');
    const period = await searchAudit({ limit: 50, from: '2026-01-02', to: '2026-01-03' }, admin, deps);
    expect(period.items.map((e) => e.actorUserId)).toEqual(['u3', 'u2']);
    expect((await searchAudit({ limit: 50, action: 'USER_SIGNED_IN' }, admin, deps)).items).toEqual([]);
  });

  it('exports CSV with a header row, escapes formula cells, and audits the export', async () => {
    const p = ports();
    const deps = { ...p, directory: fakeDirectory() };
    await p.audit.record({ ...entry(1), actorName: '=HYPERLINK("x")' });
    const { csv, rows } = await exportAuditCsv({}, caller('HOSPITAL_ADMIN'), deps);
    expect(rows).toBe(1);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Time,Action,Outcome,Actor,Actor ID,Dataset,Target user,Details,Sequence,Hash');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(p.audit.events.at(-1)).toMatchObject({ action: 'AUDIT_EXPORTED', details: { rows: 1 } });
  });
});

describe('reads are audited', () => {
  it('records a dataset view and an asset URL issue with SUCCESS, and a refused view with DENIED', async () => {
    const p = ports();
    const deps = { ...p, directory: fakeDirectory() };
    const dataset = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await getDataset(dataset.id, caller('TEAM_LEAD'), deps);
    // The page polls while a dataset is processed: a repeat within the window is not recorded again.
    await getDataset(dataset.id, caller('TEAM_LEAD'), deps);
    await listAssets(dataset.id, caller('TEAM_LEAD'), deps);
    await expect(getDataset(dataset.id, caller('TEAM_LEAD', { teamId: 't2' }), deps)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const reads = p.audit.events.filter((e) => e.datasetId === dataset.id && e.action !== 'DATASET_CREATED');
    expect(reads.map((e) => [e.action, e.outcome])).toEqual([
      ['DATASET_VIEWED', 'SUCCESS'],
      ['ASSET_URLS_ISSUED', 'SUCCESS'],
      ['DATASET_VIEWED', 'DENIED'],
    ]);
  });
});

describe('compliance and reports figures', () => {
  it('counts de-identified datasets, kept options, held series, users by status and the chain', async () => {
    const p = ports();
    const users = (['ACTIVE', 'ACTIVE', 'INVITED'] as const).map((status, i) => ({
      id: `u${i}`,
      email: `u${i}@x.test`,
      firstName: 'A',
      lastName: 'B',
      role: 'TEAM_MEMBER' as const,
      status,
      hospitalId: 'h1',
      teamId: 't1',
      permissions: [],
      createdAt: '',
      // One active user enrolled in two-factor, and an invited one whose mark does not count.
      ...(i !== 1 ? { twoFactorSince: '2026-01-01T00:00:00.000Z' } : {}),
    }));
    const share = (id: string, status: PatientShareRecord['status'], expiresAt: string, opens = 0, maxOpens = 5) =>
      ({ id, hospitalId: 'h1', datasetId: 'ds1', status, expiresAt, opens, maxOpens }) as PatientShareRecord;
    const shares = createMemoryShareStore();
    // The hospital's counters are the memory store's, moved by the same code paths as in the cloud.
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Hospital h1', createdAt: '', updatedAt: '' });
    // Users and shares counted as the paths that store them count them (docs/domain.md#counters): the figures read
    // those counters, and the ACTIVE share past its expiry from the by-expiry count.
    for (const user of users) await moveUserCounters(p.organisation, 'h1', undefined, user);
    for (const stored of [
      share('ps1', 'ACTIVE', '2999-01-01T00:00:00.000Z'),
      share('ps2', 'ACTIVE', '2000-01-01T00:00:00.000Z'),
      // Its last open stored EXHAUSTED (settleStatus).
      share('ps3', 'EXHAUSTED', '2999-01-01T00:00:00.000Z', 5, 5),
      share('ps4', 'REVOKED', '2999-01-01T00:00:00.000Z'),
      share('ps5', 'EXPIRED', '2000-01-01T00:00:00.000Z'),
    ]) {
      await shares.putPatientShare(stored);
      await movePatientShareCounters(p.organisation, 'h1', undefined, stored.status);
    }
    const deps = { ...p, directory: { ...fakeDirectory(users), getHospital: p.directory.getHospital }, shares };
    const a = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    const b = await createDataset(
      { ...NEW_DATASET, anonymization: { ...NEW_DATASET.anonymization, retainUids: true } },
      caller('TEAM_MEMBER'),
      p,
    ).catch(() => undefined);
    const deidentifiedAt = '2026-01-02T00:00:00.000Z';
    await p.datasets.update('h1', a.id, { deidentifiedAt }, ['CREATED']);
    const held: SeriesRecord = {
      id: 's1',
      datasetId: a.id,
      hospitalId: 'h1',
      seriesInstanceUID: '1.2',
      description: 'T1',
      seriesNumber: 1,
      modality: 'MR',
      sliceCount: 1,
      sizeBytes: 1,
      selected: true,
      classification: null,
      burnedInText: { reasons: ['BURNED_IN_ANNOTATION'] },
      createdAt: '2026-01-02T00:00:00.000Z',
    };
    await p.datasets.putSeries(held);
    // What the de-identify stage counts as it sets deidentifiedAt.
    await p.organisation.add('h1', { kind: 'hospital' }, complianceDeltas({ ...a, deidentifiedAt }, [held], 1));
    // Sign-ins as the pool's triggers count them: three attempts today, one signed in; one attempt 40 days ago.
    for (const phase of ['attempt', 'attempt', 'attempt', 'success'] as const)
      await countSignIn(phase, 'h1', '2026-02-01T09:00:00.000Z', p.organisation);
    await countSignIn('attempt', 'h1', '2025-12-23T09:00:00.000Z', p.organisation);
    await countSignIn('attempt', 'h2', '2026-02-01T09:00:00.000Z', p.organisation);
    const figures = await getCompliance({}, caller('HOSPITAL_ADMIN'), deps);
    expect(figures.deidentification).toMatchObject({
      datasets: b ? 2 : 1,
      deidentified: 1,
      basicProfileOnly: 1,
    });
    expect(figures.burnedInText).toEqual({ seriesHeld: 1, seriesReleased: 0, datasetsWithHeldSeries: 1 });
    expect(figures.users).toEqual({ total: 3, byStatus: { ACTIVE: 2, INVITED: 1, DISABLED: 0 }, twoFactor: 1 });
    expect(figures.auditChain.events).toBe(p.audit.events.length);
    expect(figures.auditChain.lastVerification).toBeNull();
    expect(figures.patientShares).toEqual({
      PENDING_APPROVAL: 0,
      ACTIVE: 1,
      EXPIRED: 2,
      REVOKED: 1,
      EXHAUSTED: 1,
      REFUSED: 0,
    });
    expect(figures.signIns).toEqual({ days: 30, attempts: 3, succeeded: 1, failed: 2 });
    const inForce = await policyFor('h1', null, p);
    // The HIPAA switches are the de-identification policy's (the defaults here): fixed on, UIDs regenerated, the safe
    // private list kept.
    expect(figures.hipaa).toEqual({
      toggles: { anonymizeByDefault: true, hashIds: true, regenerateUIDs: true, removePrivateTags: false },
      twoFactorRequired: inForce.security.twoFactorRequired,
    });
  });

  it('keeps its dataset figures as counters: out with a dataset moved to the bin, back with its restore, moved by a release', async () => {
    const p = ports();
    await p.directory.putHospital({ id: 'h1', slug: 'h1', name: 'Hospital h1', createdAt: '', updatedAt: '' });
    const deps = {
      ...p,
      directory: { ...fakeDirectory(), getHospital: p.directory.getHospital },
      shares: createMemoryShareStore(),
    };
    const created = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    const deidentifiedAt = '2026-01-02T00:00:00.000Z';
    const dataset = await p.datasets.update('h1', created.id, { deidentifiedAt, status: 'COMPLETE' }, ['CREATED']);
    const series = (['s1', 's2'] as const).map((id): SeriesRecord => ({
      id,
      datasetId: dataset.id,
      hospitalId: 'h1',
      seriesInstanceUID: `1.2.${id}`,
      description: 'T1',
      seriesNumber: 1,
      modality: 'MR',
      sliceCount: 1,
      sizeBytes: 1,
      selected: true,
      classification: null,
      burnedInText: { reasons: ['BURNED_IN_ANNOTATION'] },
      createdAt: deidentifiedAt,
    }));
    for (const s of series) await p.datasets.putSeries(s);
    await p.organisation.add('h1', { kind: 'hospital' }, complianceDeltas(dataset, series, 1));
    const figures = async () => {
      const f = await getCompliance({}, caller('HOSPITAL_ADMIN'), deps);
      return {
        ...f.burnedInText,
        datasets: f.deidentification.datasets,
        deidentified: f.deidentification.deidentified,
      };
    };
    const counted = { seriesHeld: 2, seriesReleased: 0, datasetsWithHeldSeries: 1, datasets: 1, deidentified: 1 };
    expect(await figures()).toEqual(counted);

    await moveToRecycleBin(dataset, { actorUserId: 'u1', actorName: 'A B' }, 'DATASET_DELETED', 'test', p);
    expect(await figures()).toEqual({
      seriesHeld: 0,
      seriesReleased: 0,
      datasetsWithHeldSeries: 0,
      datasets: 0,
      deidentified: 0,
    });
    await restoreDataset(dataset.id, caller('HOSPITAL_ADMIN'), p);
    expect(await figures()).toEqual(counted);

    // A release moves one series from held to released; the dataset stays "with held series" while s2 is held.
    await releaseSeries(dataset.id, 's1', caller('TEAM_LEAD'), p);
    expect(await figures()).toEqual({ ...counted, seriesHeld: 1, seriesReleased: 1 });
    await countSeriesRelease(p.organisation, 'h1', false);
    expect(await figures()).toEqual({ ...counted, seriesHeld: 0, seriesReleased: 2, datasetsWithHeldSeries: 0 });
  });

  it('reports studies per month of the range, per team, storage growth and processing percentiles', async () => {
    // Arrange: one study of February taken through the pipeline, its declared bytes counted as opening its upload
    // does, and one created long before the range.
    const p = ports();
    const deps = { ...p, directory: fakeDirectory() };
    const member = caller('TEAM_MEMBER');
    const d = await createDataset(NEW_DATASET, member, p);
    const actor = { actorUserId: 'u1', actorName: 'A B' };
    const steps = [
      ['CREATED', 'UPLOADING', { sizeBytes: 2048 }],
      ['UPLOADING', 'ANONYMIZING', { processingStartedAt: '2026-02-01T10:20:00.000Z' }],
      ['ANONYMIZING', 'CLASSIFYING', {}],
      ['CLASSIFYING', 'PROCESSING', {}],
      ['PROCESSING', 'COMPLETE', { completedAt: '2026-02-01T10:26:00.000Z' }],
    ] as const;
    for (const [from, to, fields] of steps) {
      const moved = await changeStatus(p, { hospitalId: 'h1', datasetId: d.id, from: [from], to, fields, ...actor });
      if (to === 'UPLOADING') await moveReportCounts(p.organisation, moved, { [counterName.bytes]: 2048 });
    }
    await createDataset(NEW_DATASET, member, { ...p, clock: { now: () => '2025-01-01T00:00:00.000Z' } });

    // Act
    const report = await getReports({ months: 3 }, caller('HOSPITAL_ADMIN'), deps);

    // Assert
    expect(report.perMonth.map((m) => m.month)).toEqual(['2025-12', '2026-01', '2026-02']);
    const feb = report.perMonth.at(-1)!;
    expect(feb).toMatchObject({ studies: 1, storageAddedBytes: 2048, storageTotalBytes: 2048, activeUsers: 1 });
    expect(feb.byStatus.COMPLETE).toBe(1);
    expect(feb.byStatus.CREATED).toBe(0);
    expect(feb.byType.DIAGNOSTIC).toBe(1);
    expect(report.byTeam).toEqual([
      { teamId: 't1', teamName: 'Neuroradiology', studies: 1, completed: 1, failed: 0, perMonth: [0, 0, 1] },
    ]);
    // With the pipeline's times, the wait before the upload finished does not count: 6 minutes.
    expect(report.processingMinutes).toEqual({ completed: 1, p50: 6, p90: 6, p99: 6 });
    expect(report.totals).toEqual({ studies: 1, storageBytes: 2048, activeUsers: 1 });
  });

  it('takes nearest-rank percentiles and whole calendar months', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 90)).toBe(4);
    expect(percentile([], 50)).toBeNull();
    expect(rangeStart('2026-03-15T00:00:00.000Z', 12).toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });
});
