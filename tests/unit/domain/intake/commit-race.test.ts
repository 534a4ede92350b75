import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASON, receiveInstance } from '#shared/domain/intake/receive-instance.ts';
import type { IntakeDeps, IntakeSource, IntakeStore, IntakeStudyRecord } from '#shared/domain/intake/ports.ts';
import { uploadKeys } from '#shared/domain/object-keys.ts';
import { SHARED_DATA } from '#tests/helpers/shared-data.ts';
import { ports } from '#tests/unit/domain/fakes.ts';

const instance = new Uint8Array(readFileSync(resolve(SHARED_DATA, 'dicom/ge-t1-ir-spgr/dicom/00001.dcm')));
const source = {
  via: 'STOW_RS',
  integration: { id: 'int-1', hospitalId: 'h1', teamId: 't1', teamName: 'Neuro', name: 'PACS', quietSeconds: 60 },
} as unknown as IntakeSource;

/** An intake store whose study is committed (its item claimed) right after the reservation, when `commitAfterReserve`. */
function racingStore(commitAfterReserve: boolean): IntakeStore {
  const open: IntakeStudyRecord = {
    hospitalId: 'h1',
    integrationId: 'int-1',
    studyInstanceUID: '1.2.3',
    datasetId: 'd-open',
    teamId: 't1',
    fileCount: 0,
    receivedBytes: 0,
    firstReceivedAt: 'x',
    lastReceivedAt: 'x',
    commitAfter: 'x',
  };
  let committed = false;
  return {
    get: async () => (committed ? undefined : open),
    create: async () => false,
    reserveFile: async () => {
      committed = commitAfterReserve;
      return { fileIndex: 7, datasetId: 'd-open' };
    },
    closeForCommit: async () => undefined,
    remove: async () => undefined,
    receivingBytes: async () => 0,
    due: async () => [],
  };
}

describe('an instance received while its study is committed (docs/dicom-intake.md#commit)', () => {
  it('is answered as not stored, so the sender sends it again, when the commit came between reservation and write', async () => {
    // Prepare
    const p = ports();
    const deps = {
      ...p,
      intake: racingStore(true),
      integrations: { touch: async () => undefined },
      pseudonymSecret: async () => 'k'.repeat(32),
    } as unknown as IntakeDeps;

    // Act
    const answer = await receiveInstance(instance, source, deps);

    // Assess: not acknowledged as stored; the written file stays for the run (or its clean-up), never half-told.
    expect(answer).toMatchObject({ stored: false, reason: FAILURE_REASON.PROCESSING_FAILURE });
    expect(await p.objects.get('uploads', uploadKeys.file('h1', 'd-open', 7))).toBeDefined();
  });

  it('is acknowledged when its study is still open after the write', async () => {
    // Prepare
    const p = ports();
    const deps = {
      ...p,
      intake: racingStore(false),
      integrations: { touch: async () => undefined },
      pseudonymSecret: async () => 'k'.repeat(32),
    } as unknown as IntakeDeps;

    // Act
    const answer = await receiveInstance(instance, source, deps);

    // Assess
    expect(answer).toMatchObject({ stored: true, datasetId: 'd-open' });
  });
});
