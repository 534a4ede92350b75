import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '#shared/definitions/table/keys.ts';
import { retentionJobId } from '#shared/domain/settings/retention.ts';
import { newDatasetBody } from '#tests/helpers/datasets.ts';
import { useHarness } from '#tests/helpers/harness.ts';

/**
 * Data retention as jobs (docs/jobs.md, docs/pipeline.md#data-retention) through the scheduled function, the job
 * worker and the DynamoDB adapters: the day's run starts one RETENTION job per active hospital, the jobs finish, a
 * second run of the day starts none, and a hospital admin follows their hospital's job as any other.
 */
const ADMIN = 'admin@northside.demo.local';
const MEMBER = 'member@northside.demo.local';
const OTHER_ADMIN = 'admin@lakeview.demo.local';
const HOSPITAL = 'hosp-northside';

const h = useHarness();

async function datasetAged(days: number): Promise<string> {
  const created = await h.call('POST', '/api/datasets', { as: MEMBER, body: newDatasetBody() });
  expect(created.status).toBe(201);
  await h.table.doc.send(
    new UpdateCommand({
      TableName: h.table.tableName,
      Key: keys.dataset(HOSPITAL, created.body.id),
      UpdateExpression: 'SET createdAt = :at',
      ExpressionAttributeValues: { ':at': new Date(Date.now() - days * 86_400_000).toISOString() },
    }),
  );
  return created.body.id as string;
}

describe('the scheduled data retention', () => {
  it("starts each active hospital's job once a day, and the jobs move what expired and finish", async () => {
    // Arrange
    const old = await datasetAged(4000);
    const young = await datasetAged(1);
    const { handler } = await import('#functions/jobs/apply-retention.ts');
    const event = { source: 'aws.events', 'detail-type': 'Scheduled Event', time: new Date().toISOString() };
    const hospitals = await h.deps.settings.listHospitalIds();

    // Act
    const first = await handler(event);
    await h.settleJobs();
    const again = await handler(event);
    await h.settleJobs();

    // Assert
    expect(first.started).toBeGreaterThan(1);
    expect(first.started + first.inactive).toBe(hospitals.length);
    expect(again).toEqual({ started: 0, existing: first.started, inactive: first.inactive });
    const jobId = retentionJobId(event.time);
    const job = await h.call('GET', `/api/jobs/${jobId}`, { as: ADMIN });
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ kind: 'RETENTION', hospitalId: HOSPITAL, status: 'SUCCEEDED', failed: 0 });
    const results = await h.call('GET', `/api/jobs/${jobId}/results`, { as: ADMIN, query: { limit: '500' } });
    const subjects = results.body.items.map((r: { subject: string }) => r.subject);
    expect(results.body.items.find((r: { subject: string }) => r.subject === old)).toMatchObject({
      outcome: 'SUCCEEDED',
      ref: 'recycle-bin',
    });
    expect(subjects).not.toContain(young);
    expect((await h.call('GET', `/api/datasets/${old}`, { as: MEMBER })).status).toBe(404);
    expect((await h.call('GET', `/api/datasets/${young}`, { as: MEMBER })).status).toBe(200);
    // Each hospital's job lies under that hospital: another hospital's admin finds its own, never Northside's results.
    const lakeview = await h.call('GET', `/api/jobs/${jobId}`, { as: OTHER_ADMIN });
    expect(lakeview.body).toMatchObject({ kind: 'RETENTION', hospitalId: 'hosp-lakeview', status: 'SUCCEEDED' });
  });
});
