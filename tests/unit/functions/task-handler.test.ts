import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyTaskError, taskHandler } from '#functions/lib/task-handler.ts';
import { setDeps } from '#functions/lib/deps.ts';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { ConflictError, NoValidDicomError } from '#shared/domain/errors.ts';
import { failureReason } from '#shared/domain/pipeline/record-failure.ts';
import { handler as recordFailure } from '#functions/pipeline/record-failure.ts';
import { handler as completeDataset } from '#functions/pipeline/complete-dataset.ts';
import { NEW_DATASET, caller, ports } from '#tests/unit/domain/fakes.ts';
import { createDataset } from '#shared/domain/datasets/create-dataset.ts';

let p: ReturnType<typeof ports>;
beforeAll(() => {
  process.env.IWS_SILENT_LOGS = '1';
  p = ports();
  setDeps({ ...p, pseudonymSecret: async () => 's' } as unknown as ServerDeps);
});
afterAll(() => setDeps(undefined));

describe('task handler', () => {
  it('rejects a payload that is not a PipelineInput', async () => {
    const run = taskHandler('X', async () => {});
    await expect(run({ datasetId: 'd' } as never)).rejects.toMatchObject({ name: 'ZodError' });
  });

  it('returns its input unchanged and rethrows named errors for Retry/Catch', async () => {
    const input = { hospitalId: 'h1', datasetId: 'd1', runId: 'r1' };
    expect(await taskHandler('X', async () => {})(input)).toEqual(input);
    await expect(
      taskHandler('X', async () => {
        throw new NoValidDicomError();
      })(input),
    ).rejects.toMatchObject({ name: 'NoValidDicomError' });
  });

  it('rethrows an error by its name only: its text (which may quote DICOM values) reaches neither Lambda logs nor the execution Cause', async () => {
    const input = { hospitalId: 'h1', datasetId: 'd1', runId: 'r1' };
    const leaky = Object.assign(new Error('tag (0010,0010) PatientName DOE^JANE is not valid UTF-8'), {
      name: 'DicomParseError',
    });
    const thrown = await taskHandler('X', async () => {
      throw leaky;
    })(input).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown!.name).toBe('DicomParseError');
    expect(thrown!.message).toBe('DicomParseError in a pipeline task');
    expect(`${thrown!.message}\n${thrown!.stack}\n${JSON.stringify(thrown)}`).not.toMatch(/DOE|JANE|PatientName/);
    expect(thrown!.stack).toMatch(/\n\s+at /);
    const domain = await taskHandler('X', async () => {
      throw new NoValidDicomError();
    })(input).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(domain).toMatchObject({ name: 'NoValidDicomError', message: 'NO_VALID_DICOM' });
  });

  it.each([
    [Object.assign(new Error('slow down'), { name: 'ThrottlingException' }), 'TransientError'],
    [Object.assign(new Error('boom'), { name: 'InternalError', $metadata: { httpStatusCode: 500 } }), 'TransientError'],
    [Object.assign(new Error('x'), { name: 'Weird', $metadata: { httpStatusCode: 503 } }), 'TransientError'],
    [new ConflictError(), 'ConflictError'],
    [new TypeError('bug'), 'TypeError'],
  ])('classifies %s as %s', (error, name) => {
    expect(classifyTaskError(error).name).toBe(name);
  });
});

describe('failure reasons', () => {
  it('are readable and never copy the cause text, which may quote DICOM values', () => {
    expect(failureReason({ Error: 'NoValidDicomError', Cause: '{}' })).toBe(
      'No valid DICOM files detected. Upload DICOM files to continue.',
    );
    expect(failureReason({ Error: 'TransientError' })).toMatch(/Retry the dataset/);
    const reason = failureReason({
      Error: 'Error',
      Cause: JSON.stringify({ errorType: 'Error', errorMessage: 'PatientName DOE^JANE' }),
    });
    expect(reason).toBe('Processing failed (Error)');
    expect(failureReason({ Error: 'States.Timeout' })).toMatch(/too long/);
    expect(failureReason(undefined)).toBe('Processing failed');
  });
});

describe('RecordFailure and CompleteDataset tasks', () => {
  it('moves an active dataset to FAILED with the reason, and leaves a deleted or finished one alone', async () => {
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await p.datasets.transition('h1', d.id, ['CREATED'], 'UPLOADING');
    await p.datasets.transition('h1', d.id, ['UPLOADING'], 'ANONYMIZING');
    await recordFailure({ hospitalId: 'h1', datasetId: d.id, runId: 'r', error: { Error: 'NoValidDicomError' } });
    expect(await p.datasets.get('h1', d.id)).toMatchObject({
      status: 'FAILED',
      failureReason: 'No valid DICOM files detected. Upload DICOM files to continue.',
    });
    await recordFailure({ hospitalId: 'h1', datasetId: d.id, runId: 'r', error: { Error: 'Other' } });
    expect(p.audit.events.filter((e) => e.datasetId === d.id && e.action === 'STATUS_CHANGED')).toHaveLength(1);
    await expect(recordFailure({ hospitalId: 'h1', datasetId: 'gone', runId: 'r' })).resolves.toMatchObject({
      datasetId: 'gone',
    });
  });

  it('completes a PROCESSING dataset once; a retried task is a no-op', async () => {
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    for (const [from, to] of [
      ['CREATED', 'UPLOADING'],
      ['UPLOADING', 'ANONYMIZING'],
      ['ANONYMIZING', 'CLASSIFYING'],
      ['CLASSIFYING', 'PROCESSING'],
    ] as const) {
      await p.datasets.transition('h1', d.id, [from], to);
    }
    await completeDataset({ hospitalId: 'h1', datasetId: d.id, runId: 'r' });
    await completeDataset({ hospitalId: 'h1', datasetId: d.id, runId: 'r' });
    expect((await p.datasets.get('h1', d.id))!.status).toBe('COMPLETE');
    expect(p.audit.events.filter((e) => e.datasetId === d.id && e.action === 'STATUS_CHANGED')).toHaveLength(1);
  });

  it('refuses to complete a dataset that skipped a stage', async () => {
    const d = await createDataset(NEW_DATASET, caller('TEAM_MEMBER'), p);
    await expect(completeDataset({ hospitalId: 'h1', datasetId: d.id, runId: 'r' })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});
