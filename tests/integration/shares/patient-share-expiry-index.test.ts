import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { recountHospital } from '#functions/adapters/dynamo/organisation.ts';
import { createShareStore } from '#functions/adapters/dynamo/shares-store.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import type { PatientShareRecord } from '#shared/domain/shares/ports.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { SCALE_HOSPITAL } from '#tests/helpers/hospital-scale.ts';

/**
 * The sparse by-expiry index of ACTIVE patient shares on the table (docs/domain.md#indexes): the adapter keeps a
 * share's entry while it is stored ACTIVE and drops it when it leaves ACTIVE, and the compliance center counts the
 * entries past their expiry with one Count query (docs/domain.md#oversight-figures).
 */
const h = useHarness();
const NOW = '2026-06-01T12:00:00.000Z';

function share(id: string, status: PatientShareRecord['status'], expiresAt: string): PatientShareRecord {
  return {
    id,
    datasetId: 'ds-expiry',
    hospitalId: SCALE_HOSPITAL,
    createdByUserId: 'u1',
    createdByName: 'Taylor Brooks',
    patientAlias: 'PT-000001',
    recipientEmail: `${id}@scale.test`,
    recipientPhone: null,
    otpRequired: true,
    expiresAt,
    maxOpens: 3,
    opens: 0,
    allowExport: false,
    watermark: true,
    scopes: ['viewer_only'],
    status,
    createdAt: '2026-05-01T12:00:00.000Z',
    tokenHash: `hash-${id}`,
    failedAttempts: 0,
    studyType: 'Follow-up',
    studyDate: '2026-05-01',
    version: 1,
  };
}

describe('the by-expiry index of ACTIVE patient shares', () => {
  it('counts ACTIVE shares whose expiry is at or before now, and drops a share from it as it leaves ACTIVE', async () => {
    // Arrange: one ACTIVE share expired before now, one expiring exactly now, one later, one waiting for approval.
    const store = createShareStore(h.table);
    const before = share('ps-before', 'ACTIVE', '2026-06-01T11:00:00.000Z');
    const atNow = share('ps-at-now', 'ACTIVE', NOW);
    const later = share('ps-later', 'ACTIVE', '2026-06-02T12:00:00.000Z');
    const waiting = share('ps-waiting', 'PENDING_APPROVAL', '2026-05-02T12:00:00.000Z');
    for (const s of [before, atNow, later, waiting]) await store.putPatientShare(s);

    // Act and assert: an expiry equal to now is expired, as effectiveStatus says; the waiting share is not indexed.
    expect(await store.countActivePastExpiry(SCALE_HOSPITAL, NOW)).toBe(2);
    expect(await store.countActivePastExpiry('hosp-lakeview', NOW)).toBe(0);
    // Settled EXPIRED and revoked: out of the index.
    await store.updatePatientShare(before, { status: 'EXPIRED' }, before.version);
    await store.updatePatientShare(atNow, { status: 'REVOKED' }, atNow.version);
    expect(await store.countActivePastExpiry(SCALE_HOSPITAL, NOW)).toBe(0);
    // Approved with an expiry already past (its lifetime from approval): into the index with that expiry.
    await store.updatePatientShare(
      waiting,
      { status: 'ACTIVE', expiresAt: '2026-06-01T06:00:00.000Z' },
      waiting.version,
    );
    expect(await store.countActivePastExpiry(SCALE_HOSPITAL, NOW)).toBe(1);
    // An update that touches neither status nor expiry keeps the entry.
    const current = (await store.getPatientShare(SCALE_HOSPITAL, later.datasetId, later.id))!;
    await store.updatePatientShare(current, { opens: 1 }, current.version);
    expect(await store.countActivePastExpiry(SCALE_HOSPITAL, '2026-06-03T00:00:00.000Z')).toBe(2);
  });

  it('lists the ACTIVE shares past their expiry a page at a time, oldest expiry first, for the retention job', async () => {
    // Arrange: five expired links in a hospital of their own, and one still valid.
    const store = createShareStore(h.table);
    const hospitalId = 'hosp-expiry-pages';
    const expired = [5, 4, 3, 2, 1].map((hours) => ({
      ...share(`pg-${hours}`, 'ACTIVE', new Date(Date.parse(NOW) - hours * 3_600_000).toISOString()),
      hospitalId,
    }));
    for (const s of [...expired, { ...share('pg-valid', 'ACTIVE', '2026-07-01T00:00:00.000Z'), hospitalId }])
      await store.putPatientShare(s);

    // Act: pages of two, each from the key the page before it ended on.
    const seen: string[] = [];
    let startKey: Record<string, string> | undefined;
    let pages = 0;
    do {
      const page = await store.listActivePastExpiry(hospitalId, NOW, { limit: 2, ...(startKey ? { startKey } : {}) });
      seen.push(...page.items.map((s) => s.id));
      startKey = page.lastKey;
      pages += 1;
    } while (startKey && pages < 10);

    // Assert
    expect(seen).toEqual(expired.map((s) => s.id));
    expect(pages).toBeLessThanOrEqual(3);
  });

  it('recount sets the hospital counters of users and shares and indexes ACTIVE shares stored before the index', async () => {
    // Arrange: an ACTIVE share past its expiry written without its index entry, as items stored before it existed.
    const old = share('ps-old', 'ACTIVE', '2026-01-01T00:00:00.000Z');
    await h.table.doc.send(
      new PutCommand({
        TableName: h.table.tableName,
        Item: {
          ...keys.patientShare(old.hospitalId, old.datasetId, old.id),
          ...keys.patientShareByTokenHash(old.tokenHash),
          entity: 'patientShare',
          ...old,
        },
      }),
    );
    const store = createShareStore(h.table);
    const counted = await store.countActivePastExpiry(SCALE_HOSPITAL, NOW);

    // Act: twice, as a recount is set, not added.
    await recountHospital(h.table, SCALE_HOSPITAL);
    await recountHospital(h.table, SCALE_HOSPITAL);

    // Assert
    expect(await store.countActivePastExpiry(SCALE_HOSPITAL, NOW)).toBe(counted + 1);
    const { Item: hospital } = await h.table.doc.send(
      new GetCommand({ TableName: h.table.tableName, Key: keys.hospital(SCALE_HOSPITAL) }),
    );
    const shares = (await store.listHospitalPatientShares(SCALE_HOSPITAL)).filter((s) => s.status === 'ACTIVE');
    expect(hospital?.patientShares_ACTIVE).toBe(shares.length);
    expect(hospital?.users_ACTIVE).toBeGreaterThan(0);
    expect(hospital?.users_ACTIVE).toBe(hospital?.userCount);
  });
});
