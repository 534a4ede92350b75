import type { HospitalRecord } from '#shared/domain/auth/ports.ts';
import type { StageDeps } from '#shared/domain/pipeline/stages.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import { createMemoryAuditLog, type MemoryAuditLog } from '#functions/adapters/memory/audit-log.ts';
import { createMemoryDatasetRepository } from '#functions/adapters/memory/datasets-repository.ts';
import { createMemoryUploadRepository } from '#functions/adapters/memory/uploads-repository.ts';

/**
 * Every port the pipeline stages need, for one local `iws process` run over `objects`: the repositories in memory
 * (one dataset, its series, assets and audit events). No upload session exists on this path (the files are put
 * straight into the uploads bucket), so the upload repository stays empty.
 */
export function createLocalStageDeps(options: {
  objects: ObjectStore;
  secret: string;
  hospital?: HospitalRecord;
}): StageDeps & {
  datasets: ReturnType<typeof createMemoryDatasetRepository>;
  audit: MemoryAuditLog;
} {
  const audit = createMemoryAuditLog();
  return {
    datasets: createMemoryDatasetRepository(audit),
    audit,
    objects: options.objects,
    uploads: createMemoryUploadRepository(),
    clock: { now: () => new Date().toISOString() },
    pseudonymSecret: async () => options.secret,
    directory: { getHospital: async (id) => (options.hospital?.id === id ? options.hospital : undefined) },
  };
}
