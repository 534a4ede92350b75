import { Alert, Badge, Box, Button, HStack, IconButton, Input, SegmentGroup, Stack, Text } from '@chakra-ui/react';
import { useMemo, useRef, useState, type DragEvent } from 'react';
import { LuCopy, LuTrash2, LuUpload } from 'react-icons/lu';
import {
  BULK_CSV_MAX_BYTES,
  INVITABLE_ROLE_INFO,
  INVITABLE_ROLES,
  validateBulkRows,
  type BulkMode,
  type BulkRowInput,
} from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { invitationsApi } from '#web/features/invitations/api/invitations-api.ts';
import {
  checkCsvFiles,
  CSV_ACCEPT,
  invitationTemplateCsv,
  parseInvitationCsv,
  TEMPLATE_FILE_NAME,
} from '#web/features/invitations/utils/invitation-csv.ts';
import { INVITATION_TOASTS } from '#web/features/invitations/utils/invitation-format.ts';

type Row = BulkRowInput & { id: number };
type Props = { departments: Department[]; teams: Team[]; onSent(): void };

let nextRowId = 1;
const emptyRow = (): Row => ({ id: nextRowId++, fullName: '', email: '', role: '', department: '', team: '' });

/** A CSV names departments and teams; the table holds their ids when they match (case-insensitive). */
function resolveNames(row: BulkRowInput, departments: Department[], teams: Team[]): BulkRowInput {
  const byName = <T extends { id: string; name: string }>(list: T[], value: string) =>
    list.find((x) => x.id === value || x.name.toLowerCase() === value.toLowerCase());
  const department = row.department ? byName(departments, row.department) : undefined;
  const team = row.team ? byName(teams, row.team) : undefined;
  return { ...row, department: department?.id ?? row.department, team: team?.id ?? row.team };
}

type Option = { value: string; label: string };

/** A CSV row may name a department or team the hospital does not hold: keep it selectable under its own name. */
function withImportedValue(options: Option[], value: string, known: boolean): Option[] {
  return value && !known ? [...options, { value, label: value }] : options;
}

/**
 * Bulk Invitations (docs/screens.md#bulk-invitations): a CSV by drag-and-drop or click replaces the manual rows;
 * Basic and Strict rules; Validate All shows Valid, Errors and Duplicates; Send N Invites.
 */
export function BulkInvitations({ departments, teams, onSent }: Props) {
  const [rows, setRows] = useState<Row[]>(() => [emptyRow()]);
  const [mode, setMode] = useState<BulkMode>('basic');
  const [fileName, setFileName] = useState<string>();
  const [csvErrors, setCsvErrors] = useState<string[]>([]);
  const [shownErrors, setShownErrors] = useState<string[][] | undefined>();
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const live = useMemo(() => validateBulkRows(rows, mode), [rows, mode]);
  const validCount = live.filter((e) => e.length === 0).length;
  const anyErrors = live.some((e) => e.length > 0);
  const summary = shownErrors && {
    valid: shownErrors.filter((e) => e.length === 0).length,
    errors: shownErrors.filter((e) => e.length > 0).length,
    duplicates: shownErrors.filter((e) => e.some((m) => m.startsWith('Duplicate email'))).length,
  };

  const update = (id: number, patch: Partial<BulkRowInput>) =>
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...patch } : r)));

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

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void loadFiles([...event.dataTransfer.files]);
  };

  const downloadTemplate = () => {
    const sample = teams.map((t) => ({
      department: departments.find((d) => d.id === t.departmentId)?.name ?? '',
      team: t.name,
    }));
    const url = URL.createObjectURL(new Blob([invitationTemplateCsv(sample)], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = TEMPLATE_FILE_NAME;
    a.click();
    URL.revokeObjectURL(url);
  };

  const clearAll = () => {
    setRows([emptyRow()]);
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
      const result = await invitationsApi.sendBulk({
        mode,
        invitations: rows.map(({ id: _id, ...row }) => row),
      });
      if (result.rejected.length > 0) {
        const remaining = result.rejected.map((r) => rows[r.row - 1]!);
        setRows(remaining);
        setShownErrors(result.rejected.map((r) => r.errors));
        toaster.create({ type: 'error', ...INVITATION_TOASTS.bulkFailed });
      } else {
        clearAll();
      }
      if (result.sent > 0) toaster.create({ type: 'success', ...INVITATION_TOASTS.bulkSent(result.sent) });
      onSent();
    } catch {
      toaster.create({ type: 'error', ...INVITATION_TOASTS.bulkFailed });
    } finally {
      setBusy(false);
    }
  };

  const departmentOptions = (value: string) =>
    withImportedValue(
      departments.map((d) => ({ value: d.id, label: d.name })),
      value,
      departments.some((d) => d.id === value),
    );
  const teamOptions = (row: Row) =>
    withImportedValue(
      teams.filter((t) => t.departmentId === row.department).map((t) => ({ value: t.id, label: t.name })),
      row.team,
      teams.some((t) => t.id === row.team),
    );

  return (
    <Stack gap="4">
      <Box
        borderWidth="2px"
        borderStyle="dashed"
        rounded="md"
        p="6"
        textAlign="center"
        bg={dragging ? 'bg.muted' : undefined}
        cursor="pointer"
        role="button"
        tabIndex={0}
        aria-label="Upload CSV"
        onClick={() => fileInput.current?.click()}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && fileInput.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Stack align="center" gap="1">
          <LuUpload aria-hidden />
          <Text>{fileName ?? 'Drag and drop a CSV file here, or click to choose one'}</Text>
          <Text fontSize="sm" color="fg.muted">
            CSV only, up to {BULK_CSV_MAX_BYTES / 1024 / 1024}MB. Columns: name, email, role, department, team
            (specialization optional).
          </Text>
        </Stack>
        <input
          ref={fileInput}
          type="file"
          accept={`${CSV_ACCEPT.extension},${CSV_ACCEPT.mime}`}
          hidden
          data-testid="csv-input"
          onChange={(e) => void loadFiles([...(e.target.files ?? [])])}
        />
      </Box>
      {csvErrors.length > 0 && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>CSV Errors</Alert.Title>
            <Alert.Description>
              <Stack gap="0">
                {csvErrors.map((e) => (
                  <Text key={e}>{e}</Text>
                ))}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <HStack wrap="wrap" gap="2">
        <SegmentGroup.Root
          size="sm"
          value={mode}
          onValueChange={(e) => e.value && setMode(e.value as BulkMode)}
          aria-label="Validation mode"
        >
          <SegmentGroup.Indicator />
          <SegmentGroup.Items
            items={[
              { value: 'basic', label: 'Basic' },
              { value: 'strict', label: 'Strict' },
            ]}
          />
        </SegmentGroup.Root>
        {summary && (
          <HStack gap="2" data-testid="bulk-summary">
            <Badge colorPalette="green">Valid: {summary.valid}</Badge>
            <Badge colorPalette="red">Errors: {summary.errors}</Badge>
            <Badge colorPalette="orange">Duplicates: {summary.duplicates}</Badge>
          </HStack>
        )}
      </HStack>
      <Stack gap="3" maxH="24rem" overflowY="auto" pr="1" aria-label="Invitation rows">
        <HStack gap="2" fontSize="sm" fontWeight="medium" color="fg.muted">
          <Text flex="2">Full Name*</Text>
          <Text flex="2">Email Address*</Text>
          <Text flex="1.5">Role*</Text>
          <Text flex="1.5">Department</Text>
          <Text flex="1.5">Team</Text>
          <Box w="20" />
        </HStack>
        {rows.map((row, index) => {
          const errors = shownErrors?.[index] ?? [];
          return (
            <Stack key={row.id} gap="1" data-testid="bulk-row">
              <HStack gap="2" align="start">
                <Input
                  flex="2"
                  size="sm"
                  aria-label={`Full name, row ${index + 1}`}
                  value={row.fullName}
                  onChange={(e) => update(row.id, { fullName: e.target.value })}
                />
                <Input
                  flex="2"
                  size="sm"
                  type="email"
                  aria-label={`Email address, row ${index + 1}`}
                  value={row.email}
                  onChange={(e) => update(row.id, { email: e.target.value })}
                />
                <Box flex="1.5">
                  <Select
                    size="sm"
                    aria-label={`Role, row ${index + 1}`}
                    value={row.role}
                    placeholder="Select role"
                    options={INVITABLE_ROLES.map((r) => ({ value: r, label: INVITABLE_ROLE_INFO[r].label }))}
                    onChange={(role) => update(row.id, { role })}
                  />
                </Box>
                <Box flex="1.5">
                  <Select
                    size="sm"
                    aria-label={`Department, row ${index + 1}`}
                    value={row.department}
                    placeholder="None"
                    options={departmentOptions(row.department)}
                    onChange={(department) => update(row.id, { department, team: '' })}
                  />
                </Box>
                <Box flex="1.5">
                  <Select
                    size="sm"
                    aria-label={`Team, row ${index + 1}`}
                    value={row.team}
                    placeholder="None"
                    disabled={!row.department}
                    options={teamOptions(row)}
                    onChange={(team) => update(row.id, { team })}
                  />
                </Box>
                <HStack w="20" gap="1">
                  <IconButton
                    size="sm"
                    variant="ghost"
                    aria-label={`Duplicate row ${index + 1}`}
                    onClick={() =>
                      setRows((all) => {
                        const at = all.findIndex((r) => r.id === row.id);
                        return [...all.slice(0, at + 1), { ...row, id: nextRowId++, email: '' }, ...all.slice(at + 1)];
                      })
                    }
                  >
                    <LuCopy />
                  </IconButton>
                  {rows.length > 1 && (
                    <IconButton
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove row ${index + 1}`}
                      onClick={() => setRows((all) => all.filter((r) => r.id !== row.id))}
                    >
                      <LuTrash2 />
                    </IconButton>
                  )}
                </HStack>
              </HStack>
              {errors.map((message) => (
                <Text key={message} fontSize="xs" color="fg.error">
                  {message}
                </Text>
              ))}
            </Stack>
          );
        })}
      </Stack>
      <HStack wrap="wrap" gap="2">
        <Button size="sm" variant="outline" onClick={() => setRows((all) => [...all, emptyRow()])}>
          Add Row
        </Button>
        <Button size="sm" variant="outline" onClick={downloadTemplate}>
          Download Template
        </Button>
        <Button size="sm" variant="outline" onClick={clearAll}>
          Clear All
        </Button>
        <Button size="sm" variant="outline" onClick={() => setShownErrors(validateBulkRows(rows, mode))}>
          Validate All
        </Button>
        <Box flex="1" />
        <Button
          size="sm"
          onClick={send}
          loading={busy}
          loadingText="Sending..."
          disabled={busy || validCount === 0 || anyErrors}
        >
          Send {validCount} Invites
        </Button>
      </HStack>
    </Stack>
  );
}
