import useSWR, { mutate } from 'swr';
import {
  AuditExportSchema,
  AuditPageSchema,
  VerifyAuditResponseSchema,
  type AuditExport,
  type AuditFilter,
} from '#shared/schemas/api/audit.ts';
import { ComplianceSchema } from '#shared/schemas/api/oversight.ts';
import { JobAcceptedSchema } from '#shared/schemas/api/jobs.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { downloadFromApi } from '#web/lib/download.ts';
import { followJob } from '#web/lib/jobs.ts';

export function useCompliance(hospitalId: string | undefined) {
  return useSWR(['/api/compliance', hospitalId ?? ''], () =>
    apiRequest('/api/compliance', ComplianceSchema, { query: { hospitalId } }),
  );
}

export type AuditLogParams = AuditFilter & { limit: number; nextToken?: string };

export function useAuditLog(params: AuditLogParams) {
  return useSWR(
    ['/api/audit', ...Object.entries(params).map(([k, v]) => `${k}=${v ?? ''}`)],
    () => apiRequest('/api/audit', AuditPageSchema, { query: { ...params } }),
    { keepPreviousData: true },
  );
}

/** Reloads every page of the audit log on screen (a verification or export has just been appended). */
export function refreshAuditLog() {
  return mutate((key) => Array.isArray(key) && key[0] === '/api/audit');
}

export function verifyAuditChain(hospitalId: string | undefined) {
  return apiRequest('/api/audit/verify', VerifyAuditResponseSchema, {
    method: 'POST',
    body: hospitalId ? { hospitalId } : {},
  });
}

/** Starts the full verification of the chain and every signed digest, a job the page follows (docs/jobs.md). */
export function startFullVerification(hospitalId: string | undefined) {
  return apiRequest('/api/audit/verifications', JobAcceptedSchema, {
    method: 'POST',
    body: hospitalId ? { hospitalId } : {},
  });
}

export async function exportAuditCsv(filter: AuditFilter) {
  await downloadFromApi('/api/audit/export.csv', { ...filter }, 'audit-log.csv');
  await refreshAuditLog();
}

/**
 * The filtered audit log as a job (docs/jobs.md), for a period longer than the CSV download holds: follows the job,
 * reporting its progress, and resolves with the export and its link once it has ended.
 */
export async function exportAuditAsJob(
  filter: AuditFilter,
  onUpdate: (job: AuditExport['job']) => void,
): Promise<AuditExport> {
  const accepted = await apiRequest('/api/audit/exports', JobAcceptedSchema, { method: 'POST', body: { ...filter } });
  await followJob(accepted.job, onUpdate);
  const done = await apiRequest(`/api/audit/exports/${encodeURIComponent(accepted.jobId)}`, AuditExportSchema);
  await refreshAuditLog();
  return done;
}
