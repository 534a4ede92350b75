import { describe, expect, it } from 'vitest';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { recountHospital } from '#functions/adapters/dynamo/organisation.ts';
import { batchDelete } from '#functions/adapters/dynamo/expressions.ts';
import { TABLE_KEYS } from '#shared/definitions/table/table.ts';
import { keys } from '#shared/definitions/table/keys.ts';
import { useHarness } from '#tests/helpers/harness.ts';
import { createResearchDataset } from './datasets-harness.ts';

/**
 * The report counters over DynamoDB (docs/domain.md#report-counters): the requests' moves and the seed's recount
 * (recountHospital, run when COUNTERS_VERSION rises) leave the same items, and the reports read them.
 */
const ADMIN = 'admin@northside.demo.local';
const h = useHarness(120_000);

async function reportItems(hospitalId: string) {
  const { Items } = await h.table.doc.send(
    new ScanCommand({
      TableName: h.table.tableName,
      FilterExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': TABLE_KEYS.primary.pk, '#sk': TABLE_KEYS.primary.sk },
      ExpressionAttributeValues: { ':pk': `H#${hospitalId}`, ':prefix': keys.reportCountsPrefix },
    }),
  );
  return (Items ?? []).sort((a, b) => String(a[TABLE_KEYS.primary.sk]).localeCompare(String(b[TABLE_KEYS.primary.sk])));
}

describe('report counters in the table', () => {
  it("a recount from the datasets writes the items the requests' moves left", async () => {
    // Arrange: studies created and one deleted through the API
    const me = await h.call('GET', '/api/me', { as: ADMIN });
    const hospitalId = me.body.user.hospitalId as string;
    await createResearchDataset(h, 'member@northside.demo.local', 'Counted study one');
    const gone = await createResearchDataset(h, 'lead@northside.demo.local', 'Counted study two');
    expect((await h.call('DELETE', `/api/datasets/${gone}`, { as: ADMIN, body: {} })).status).toBe(204);
    const report = await h.call('GET', '/api/reports', { as: ADMIN });
    const moved = await reportItems(hospitalId);

    // Act: every item removed, then recounted as the seed does
    await batchDelete(
      h.table,
      moved.map((item) => ({
        [TABLE_KEYS.primary.pk]: String(item[TABLE_KEYS.primary.pk]),
        [TABLE_KEYS.primary.sk]: String(item[TABLE_KEYS.primary.sk]),
      })),
    );
    await recountHospital(h.table, hospitalId);

    // Assert: the same non-zero counts (a name stays behind with the moves when its creator's count falls to 0, and
    // is not read then), and the same report
    const nonZero = (item: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(item).filter(([name, value]) => value !== 0 && !name.startsWith('s:')));
    expect((await reportItems(hospitalId)).map(nonZero)).toEqual(moved.map(nonZero));
    expect(report.body.totals.studies).toBeGreaterThan(0);
    const again = await h.call('GET', '/api/reports', { as: ADMIN });
    expect({ ...again.body, generatedAt: '' }).toEqual({ ...report.body, generatedAt: '' });
  });
});
