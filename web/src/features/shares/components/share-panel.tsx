import { Badge, Button, Card, Heading, HStack, Image, Input, Stack, Tabs, Text } from '@chakra-ui/react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { LuLink, LuPrinter, LuShare2, LuX } from 'react-icons/lu';
import { mutate } from 'swr';
import useSWR from 'swr';
import type { z } from 'zod';
import { ROUTE_SCHEMAS } from '#shared/definitions/api/route-schemas.ts';
import { SHARE_SCOPES } from '#shared/schemas/api/policies.ts';
import {
  GRANTABLE_TEAM_SHARE_PERMISSIONS,
  type GrantableTeamSharePermission,
  type TeamSharePermission,
} from '#shared/schemas/api/shares.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { DataTable } from '#web/components/ui/data-table.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { apiAllPages } from '#web/lib/api-client.ts';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import {
  patientSharesKey,
  sharesApi,
  teamSharesKey,
  usePatientShares,
  useShareAccessLog,
  useTeamShares,
} from '#web/features/shares/api/shares-api.ts';
import {
  defaultForm,
  expiryOptions,
  maxOpensOptions,
  opensLabel,
  SCOPE_LABELS,
  STATUS_PALETTE,
  type PatientShareForm,
} from '#web/features/shares/utils/share-form.ts';

const PERMISSION_LABELS: Record<TeamSharePermission, string> = { view: 'View', download: 'Download', export: 'Export' };

/** The dataset page's Share panel (docs/screens.md#share-panel): with colleagues, and with the patient. */
export function SharePanel({ datasetId, teamId }: { datasetId: string; teamId: string | null }) {
  return (
    <Card.Root data-testid="share-panel">
      <Card.Header>
        <Heading size="md">
          <HStack>
            <LuShare2 /> Share
          </HStack>
        </Heading>
      </Card.Header>
      <Card.Body>
        <Tabs.Root defaultValue="patient">
          <Tabs.List>
            <Tabs.Trigger value="patient">With the patient</Tabs.Trigger>
            <Tabs.Trigger value="team">With colleagues</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="patient">
            <PatientShares datasetId={datasetId} />
          </Tabs.Content>
          <Tabs.Content value="team">
            <TeamShares datasetId={datasetId} teamId={teamId} />
          </Tabs.Content>
        </Tabs.Root>
      </Card.Body>
    </Card.Root>
  );
}

function TeamShares({ datasetId, teamId }: { datasetId: string; teamId: string | null }) {
  const { data, error } = useTeamShares(datasetId);
  const members = useSWR(teamId ? ['/api/teams/{teamId}/members', teamId] : null, () =>
    apiAllPages(
      `/api/teams/${encodeURIComponent(teamId!)}/members`,
      ROUTE_SCHEMAS['GET /api/teams/{teamId}/members'].response,
    ),
  );
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const [otherTeam, setOtherTeam] = useState('');
  const [permissions, setPermissions] = useState<GrantableTeamSharePermission[]>(['view']);
  const [busy, setBusy] = useState(false);
  if (error) return <ErrorBox message={errorMessage(error)} />;
  const otherTeams = data?.teams ?? [];
  const share = async () => {
    setBusy(true);
    try {
      const result = await sharesApi.shareWithTeam(datasetId, {
        ...(memberIds.length ? { memberIds } : {}),
        ...(otherTeam ? { teamId: otherTeam } : {}),
        permissions,
      });
      // The sharing policy may hold it for a team lead or hospital admin (docs/domain.md#share-policy).
      toaster.create(
        result.items.some((s) => s.status === 'PENDING_APPROVAL')
          ? { type: 'info', title: 'Waiting for approval', description: 'A team lead or hospital admin approves it.' }
          : { type: 'success', title: 'Dataset shared' },
      );
      setMemberIds([]);
      setOtherTeam('');
      await mutate(teamSharesKey(datasetId));
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (shareId: string) => {
    try {
      await sharesApi.revokeTeamShare(datasetId, shareId);
      toaster.create({ type: 'info', title: 'Share revoked' });
      await mutate(teamSharesKey(datasetId));
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };
  return (
    <Stack gap="4" pt="3">
      <FormField label="Members of the team">
        <Stack gap="1" data-testid="share-members">
          {(members.data?.items ?? [])
            .filter((m) => m.status === 'ACTIVE')
            .map((m) => (
              <Checkbox
                key={m.id}
                checked={memberIds.includes(m.id)}
                onCheckedChange={(on) => setMemberIds((ids) => (on ? [...ids, m.id] : ids.filter((x) => x !== m.id)))}
              >
                {m.user.firstName} {m.user.lastName}
              </Checkbox>
            ))}
        </Stack>
      </FormField>
      {otherTeams.length > 0 && (
        <FormField label="Another team">
          <Select
            aria-label="Another team"
            value={otherTeam}
            onChange={setOtherTeam}
            placeholder="None"
            options={otherTeams.map((t) => ({ value: t.id, label: t.name }))}
          />
        </FormField>
      )}
      <FormField label="Permissions" error={permissions.length ? undefined : 'At least one permission is required'}>
        <HStack>
          {/* What a new share may give (docs/domain.md#share-permissions): view, download, and export, which lets the
              recipient export the dataset (docs/exports.md). */}
          {GRANTABLE_TEAM_SHARE_PERMISSIONS.map((p) => (
            <Checkbox
              key={p}
              checked={permissions.includes(p)}
              onCheckedChange={(on) => setPermissions((ps) => (on ? [...ps, p] : ps.filter((x) => x !== p)))}
            >
              {PERMISSION_LABELS[p]}
            </Checkbox>
          ))}
        </HStack>
      </FormField>
      <Button
        alignSelf="flex-start"
        onClick={share}
        loading={busy}
        disabled={permissions.length === 0 || (memberIds.length === 0 && !otherTeam)}
      >
        Share with colleagues
      </Button>
      <DataTable
        aria-label="Shares with colleagues"
        rows={data?.items ?? []}
        rowKey={(s) => s.id}
        rowProps={() => ({ 'data-testid': 'team-share-row' })}
        columns={[
          {
            key: 'recipient',
            header: 'Shared with',
            cell: (s) => (
              <>
                {s.recipientName} <Badge>{s.recipientType === 'TEAM' ? 'Team' : 'Member'}</Badge>
              </>
            ),
          },
          {
            key: 'permissions',
            header: 'Permissions',
            cell: (s) => s.permissions.map((p) => PERMISSION_LABELS[p]).join(', '),
          },
          { key: 'by', header: 'By', cell: (s) => `${s.createdByName} · ${formatDateTime(s.createdAt)}` },
          {
            key: 'revoke',
            align: 'end',
            cell: (s) => (
              <Button size="xs" variant="outline" colorPalette="red" onClick={() => revoke(s.id)}>
                <LuX /> Revoke
              </Button>
            ),
          },
        ]}
      />
    </Stack>
  );
}

type CreatedShare = z.infer<(typeof ROUTE_SCHEMAS)['POST /api/datasets/{id}/patient-shares']['response']>;

function PatientShares({ datasetId }: { datasetId: string }) {
  const { data, error } = usePatientShares(datasetId);
  const [form, setForm] = useState<PatientShareForm>();
  const [created, setCreated] = useState<CreatedShare>();
  const [busy, setBusy] = useState(false);
  const [logOf, setLogOf] = useState<string>();
  useEffect(() => {
    if (data && !form) setForm(defaultForm(data.limits));
  }, [data, form]);
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (!data || !form) return <Text color="fg.muted">Loading...</Text>;
  const limits = data.limits;
  const set = (fields: Partial<PatientShareForm>) => setForm({ ...form, ...fields });
  const submit = async () => {
    setBusy(true);
    try {
      const result = await sharesApi.shareWithPatient(datasetId, {
        ...(form.recipientEmail.trim() ? { recipientEmail: form.recipientEmail.trim() } : {}),
        ...(form.recipientPhone.trim() ? { recipientPhone: form.recipientPhone.trim() } : {}),
        expiresInHours: form.expiresInHours,
        maxOpens: form.maxOpens,
        watermark: form.watermark,
        allowDownloads: form.allowDownloads,
        scopes: form.scopes,
      });
      setCreated(result);
      setForm(defaultForm(limits));
      await mutate(patientSharesKey(datasetId));
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (shareId: string) => {
    try {
      await sharesApi.revokePatientShare(datasetId, shareId);
      toaster.create({ type: 'info', title: 'Share revoked' });
      await mutate(patientSharesKey(datasetId));
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };
  const toggleScope = (scope: (typeof SHARE_SCOPES)[number], on: boolean) =>
    set({ scopes: on ? [...form.scopes, scope] : form.scopes.filter((s) => s !== scope) });
  return (
    <Stack gap="4" pt="3">
      <HStack gap="3" wrap="wrap" align="flex-start">
        <FormField label="Patient e-mail">
          <Input
            type="email"
            value={form.recipientEmail}
            onChange={(e) => set({ recipientEmail: e.currentTarget.value })}
            data-testid="share-email"
          />
        </FormField>
        <FormField label="Patient phone" helperText="International format, e.g. +1 312 555 0100">
          <Input value={form.recipientPhone} onChange={(e) => set({ recipientPhone: e.currentTarget.value })} />
        </FormField>
      </HStack>
      <HStack gap="3" wrap="wrap">
        <FormField label="Expiry">
          <Select
            aria-label="Expiry"
            value={String(form.expiresInHours)}
            onChange={(v) => set({ expiresInHours: Number(v) })}
            options={expiryOptions(limits).map((o) => ({ value: String(o.hours), label: o.label }))}
          />
        </FormField>
        <FormField label="Max opens">
          <Select
            aria-label="Max opens"
            value={String(form.maxOpens)}
            onChange={(v) => set({ maxOpens: Number(v) })}
            options={maxOpensOptions(limits).map((n) => ({ value: String(n), label: opensLabel(n) }))}
          />
        </FormField>
      </HStack>
      <HStack gap="4" wrap="wrap">
        <Checkbox
          checked={form.watermark}
          disabled={limits.watermarkEnabled}
          onCheckedChange={(on) => set({ watermark: on })}
        >
          Watermark
        </Checkbox>
        <Checkbox
          checked={form.allowDownloads}
          disabled={!limits.downloadsEnabled}
          onCheckedChange={(on) =>
            set({ allowDownloads: on, scopes: on ? form.scopes : form.scopes.filter((s) => s !== 'downloads') })
          }
        >
          Downloads
        </Checkbox>
      </HStack>
      <HStack gap="4" wrap="wrap">
        {SHARE_SCOPES.filter((s) => limits.allowedScopes.includes(s) || s === 'downloads').map((scope) => (
          <HStack key={scope}>
            <Checkbox
              checked={form.scopes.includes(scope)}
              disabled={scope === 'downloads' && !form.allowDownloads}
              onCheckedChange={(on) => toggleScope(scope, on)}
            >
              {SCOPE_LABELS[scope]}
            </Checkbox>
            {scope === 'downloads' && !form.allowDownloads && <Badge>Requires Downloads</Badge>}
          </HStack>
        ))}
      </HStack>
      <Button
        alignSelf="flex-start"
        onClick={submit}
        loading={busy}
        disabled={(!form.recipientEmail.trim() && !form.recipientPhone.trim()) || form.scopes.length === 0}
        data-testid="share-with-patient"
      >
        <LuLink /> Create patient link
      </Button>
      {created?.share.status === 'PENDING_APPROVAL' && (
        <Text color="fg.muted" data-testid="patient-share-pending">
          Waiting for approval: the link opens, and the code is sent, once a team lead or hospital admin approves it.
        </Text>
      )}
      {created && <CreatedLink link={created.link} />}
      <DataTable
        aria-label="Patient links"
        rows={data.items}
        rowKey={(s) => s.id}
        rowProps={() => ({ 'data-testid': 'patient-share-row' })}
        columns={[
          { key: 'recipient', header: 'Recipient', cell: (s) => s.recipientEmail ?? s.recipientPhone },
          {
            key: 'status',
            header: 'Status',
            cell: (s) => (
              <>
                <Badge colorPalette={STATUS_PALETTE[s.status]} data-testid="patient-share-status">
                  {s.status}
                </Badge>
                {s.lockedUntil && <Badge colorPalette="red">Locked</Badge>}
              </>
            ),
          },
          { key: 'opens', header: 'Opens', cell: (s) => `${s.opens} / ${opensLabel(s.maxOpens)}` },
          { key: 'expires', header: 'Expires', cell: (s) => formatDateTime(s.expiresAt) },
          {
            key: 'actions',
            align: 'end',
            cell: (s) => (
              <HStack justify="flex-end">
                <Button size="xs" variant="ghost" onClick={() => setLogOf(logOf === s.id ? undefined : s.id)}>
                  Access log
                </Button>
                {s.status === 'ACTIVE' && (
                  <Button size="xs" variant="outline" colorPalette="red" onClick={() => revoke(s.id)}>
                    <LuX /> Revoke
                  </Button>
                )}
              </HStack>
            ),
          },
        ]}
      />
      {logOf && <AccessLog datasetId={datasetId} shareId={logOf} />}
    </Stack>
  );
}

const EVENT_LABELS = {
  CODE_SENT: 'Code sent',
  WRONG_CODE: 'Wrong code',
  LOCKED: 'Locked',
  OPENED: 'Opened',
  DOWNLOAD: 'Download',
} as const;

function AccessLog({ datasetId, shareId }: { datasetId: string; shareId: string }) {
  const { data, error } = useShareAccessLog(datasetId, shareId);
  if (error) return <ErrorBox message={errorMessage(error)} />;
  if (!data) return <Text color="fg.muted">Loading...</Text>;
  if (data.items.length === 0) return <Text color="fg.muted">No access yet.</Text>;
  return (
    <DataTable
      aria-label="Access log"
      data-testid="share-access-log"
      hideHeader
      rows={data.items}
      rowKey={(e) => e.id}
      columns={[
        { key: 'at', cell: (e) => formatDateTime(e.at) },
        { key: 'type', cell: (e) => EVENT_LABELS[e.type] },
        { key: 'client', cell: (e) => e.client },
      ]}
    />
  );
}

/** The link, shown once (only its hash is stored), with a QR code to print for the patient. */
function CreatedLink({ link }: { link: string }) {
  const [qr, setQr] = useState<string>();
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(link, { margin: 1, width: 192 }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [link]);
  const print = () => {
    const w = window.open('', '_blank', 'noopener=no,width=420,height=520');
    if (!w || !qr) return;
    w.document.title = 'Your imaging study';
    const img = w.document.createElement('img');
    img.src = qr;
    const p = w.document.createElement('p');
    p.textContent = 'Scan to view your imaging study. A one-time code will be sent to you.';
    w.document.body.append(p, img);
    w.print();
  };
  return (
    <Card.Root variant="subtle" data-testid="patient-link">
      <Card.Body>
        <Stack gap="2">
          <Text fontWeight="medium">Patient link (shown once: copy or print it now)</Text>
          <Input readOnly value={link} data-testid="patient-link-url" onFocus={(e) => e.currentTarget.select()} />
          <HStack>
            <Button size="sm" variant="outline" onClick={() => void navigator.clipboard?.writeText(link)}>
              Copy link
            </Button>
            <Button size="sm" variant="outline" onClick={print} disabled={!qr}>
              <LuPrinter /> Print QR code
            </Button>
          </HStack>
          {qr && <Image src={qr} alt="QR code of the patient link" width="48" height="48" />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
