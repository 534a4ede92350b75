import { useMemo, useRef, useState } from 'react';
import { validateBulkRows, type BulkMode, type BulkRowInput } from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { toaster } from '#web/components/ui/toaster.tsx';
import { fetchAllJobResults, followJob } from '#web/lib/jobs.ts';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import {
  bulkSummary,
  duplicateRow,
  emptyRow,
  rejectedRows,
  resolveNames,
  templateSample,
  type BulkRow,
} from '#web/features/invitations/utils/bulk-rows.ts';
import {
  checkCsvFiles,
  invitationTemplateCsv,
  parseInvitationCsv,
  TEMPLATE_FILE_NAME,
} from '#web/features/invitations/utils/invitation-csv.ts';
import { INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';

let nextRowId = 1;
const newRow = () => emptyRow(nextRowId++);

type Options = { departments: Department[]; teams: Team[]; onSent(): void };

/**
 * The state of Bulk Invitations (docs/screens.md#bulk-invitations): the rows, typed in or read from a CSV (which
 * replaces them), the Basic or Strict rules, the errors shown after Validate All or a send, and the send itself.
 */
export function useBulkInvitations({ departments, teams, onSent }: Options) {
  const [rows, setRows] = useState<BulkRow[]>(() => [newRow()]);
  const [mode, setMode] = useState<BulkMode>('basic');
  const [fileName, setFileName] = useState<string>();
  const [csvErrors, setCsvErrors] = useState<string[]>([]);
  const [shownErrors, setShownErrors] = useState<string[][] | undefined>();
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<Job>();
  const fileInput = useRef<HTMLInputElement>(null);

  const live = useMemo(() => validateBulkRows(rows, mode), [rows, mode]);

  const loadFiles = async (files: File[]) => {
    const problem = checkCsvFiles(files);
    if (problem) {
      setCsvErrors([problem]);
      return;
    }
    const file = files[0];
    if (!file) return;
    const parsed = parseInvitationCsv(await file.text());
    setFileName(file.name);
    setCsvErrors(parsed.errors);
    if (parsed.rows.length > 0) {
      setRows(parsed.rows.map((r) => ({ ...resolveNames(r, departments, teams), id: nextRowId++ })));
      setShownErrors(undefined);
    }
  };

  const downloadTemplate = () => {
    const url = URL.createObjectURL(
      new Blob([invitationTemplateCsv(templateSample(departments, teams))], { type: 'text/csv' }),
    );
    const a = document.createElement('a');
    a.href = url;
    a.download = TEMPLATE_FILE_NAME;
    a.click();
    URL.revokeObjectURL(url);
  };

  const clearAll = () => {
    setRows([newRow()]);
    setFileName(undefined);
    setCsvErrors([]);
    setShownErrors(undefined);
    if (fileInput.current) fileInput.current.value = '';
  };

  const send = async () => {
    const errors = validateBulkRows(rows, mode);
    setShownErrors(errors);
    if (errors.some((e) => e.length > 0)) return;
    setBusy(true);
    try {
      // The server answers at once with a job (docs/jobs.md); its progress shows while it invites row by row.
      const accepted = await invitationsApi.sendBulk({
        mode,
        invitations: rows.map(({ id: _id, ...row }) => row),
      });
      const ended = await followJob(accepted.job, setJob);
      const rejected = (await fetchAllJobResults(ended.id))
        .filter((r) => r.outcome !== 'SUCCEEDED')
        .map((r) => ({ row: r.seq, errors: [r.reason ?? 'Not sent'] }));
      if (rejected.length > 0 || ended.status === 'FAILED') {
        const remaining = rejectedRows(rows, rejected);
        setRows(remaining.rows);
        setShownErrors(remaining.errors);
        toaster.create({ type: 'error', ...INVITATION_TOASTS.bulkFailed });
      } else {
        clearAll();
      }
      if (ended.succeeded > 0) toaster.create({ type: 'success', ...INVITATION_TOASTS.bulkSent(ended.succeeded) });
      onSent();
    } catch {
      toaster.create({ type: 'error', ...INVITATION_TOASTS.bulkFailed });
    } finally {
      setBusy(false);
    }
  };

  return {
    rows,
    mode,
    setMode,
    fileName,
    csvErrors,
    /** Each row's messages, once shown (Validate All, a send). */
    shownErrors,
    summary: shownErrors && bulkSummary(shownErrors),
    /** Rows valid now, and whether any is not: Send counts the former and waits for none of the latter. */
    validCount: live.filter((e) => e.length === 0).length,
    anyErrors: live.some((e) => e.length > 0),
    busy,
    /** The last send's job, with its progress (docs/jobs.md). */
    job,
    fileInput,
    update: (id: number, patch: Partial<BulkRowInput>) =>
      setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r))),
    addRow: () => setRows((all) => [...all, newRow()]),
    duplicate: (id: number) => setRows((all) => duplicateRow(all, id, nextRowId++)),
    remove: (id: number) => setRows((all) => all.filter((r) => r.id !== id)),
    validate: () => setShownErrors(validateBulkRows(rows, mode)),
    loadFiles,
    downloadTemplate,
    clearAll,
    send,
  };
}
