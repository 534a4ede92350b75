import { randomInt } from 'node:crypto';
import type { AssetRecord, DatasetRecord, DatasetRepository } from '#shared/domain/datasets/ports.ts';
import { releasedAssets } from '#shared/domain/datasets/held-series.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import { requireActiveHospital, type HospitalStatusReader } from '#shared/domain/auth/hospital-status.ts';
import { datasetPrefix, patientDownloadKey } from '#shared/domain/object-keys.ts';
import { NotFoundError, ShareAccessError } from '#shared/domain/errors.ts';
import type { Mailer, TokenMint } from '#shared/domain/invitations/ports.ts';
import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { PatientSession, ShareAccessEventType } from '#shared/schemas/api/shares.ts';
import { watermarkNifti, watermarkPdf, watermarkPng } from './watermark.ts';
import { patientLink, settleStatus } from './patient-shares.ts';
import type { PatientShareRecord, ShareCodeHasher, ShareLimits, ShareStore, SmsSender } from './ports.ts';
import { assertRecipientAllowed, sharePolicyFor } from './share-policy.ts';
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { PolicyReader } from '#shared/domain/settings/policies.ts';
import type { SettingsStore } from '#shared/domain/settings/ports.ts';
import { raiseSecurityAlert, type AlertDeps } from '#shared/domain/notifications/alerts.ts';

export type PatientAccessDeps = {
  shares: ShareStore;
  /**
   * The share's hospital must be active: a deactivated hospital's links do not open (docs/domain.md#deactivation).
   * With `getTeam` and `settings`, the sharing policy is read again when a link is opened.
   */
  directory: HospitalStatusReader & Partial<Pick<Directory, 'getTeam'>>;
  /** With the preferences and profiles too, a locked link alerts the hospital admins (docs/domain.md#security-alerts). */
  settings?: PolicyReader & Partial<Pick<SettingsStore, 'getNotificationPreferences' | 'getUserProfile'>>;
  /** The hospital's patient shares by status move where a share's stored status does (docs/domain.md#counters). */
  organisation: Pick<OrganisationStore, 'listUsers' | 'add'>;
  notificationLedger?: AlertDeps['notificationLedger'];
  datasets: DatasetRepository;
  objects: ObjectStore;
  mailer: Mailer;
  /** Absent where no SMS service is configured: a phone-only share then cannot get a code. */
  sms?: SmsSender;
  notifications?: NotificationInbox;
  audit: AuditLog;
  tokens: TokenMint;
  /** The one-time codes' salted slow hash. */
  shareCodes: ShareCodeHasher;
  clock: Clock;
  ids: IdGenerator;
  siteOrigin: string;
  shareLimits: ShareLimits;
};

/** Who is calling, coarsely: the network and the browser family (docs/domain.md#shares); never stored in full. */
export type PublicClient = { ip: string; userAgent: string };

export function coarseClient(client: PublicClient): string {
  const v4 = client.ip.match(/^(\d+)\.(\d+)\.(\d+)\.\d+$/);
  const network = v4 ? `${v4[1]}.${v4[2]}.${v4[3]}.0/24` : client.ip.split(':').slice(0, 3).join(':') + '::/48';
  const ua = client.userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Other';
  return `${network} ${browser}`;
}

const PATIENT_ACTOR = (shareId: string) => ({
  actorUserId: `patient-share:${shareId}`,
  actorName: 'Patient (share link)',
});

/** Every unusable link answers alike: unknown, revoked, expired or used up (no enumeration). */
const invalidLink = () => new NotFoundError('SHARE_LINK_INVALID');

async function limitClient(client: PublicClient, deps: PatientAccessDeps): Promise<void> {
  const count = await deps.shares.hit(`client#${client.ip}`, 60, deps.clock.now());
  if (count > deps.shareLimits.callsPerClientPerMinute) throw new ShareAccessError('SHARE_RATE_LIMITED');
}

async function logAccess(
  share: PatientShareRecord,
  type: ShareAccessEventType,
  client: PublicClient,
  deps: PatientAccessDeps,
) {
  await deps.shares.addAccessEvent({
    id: deps.ids.newId(),
    hospitalId: share.hospitalId,
    datasetId: share.datasetId,
    shareId: share.id,
    type,
    at: deps.clock.now(),
    client: coarseClient(client),
  });
}

/** The share of a token if it can still be used (status settled first), else the one answer for every bad link. */
async function usableShare(token: string, deps: PatientAccessDeps): Promise<PatientShareRecord> {
  const found = await deps.shares.findPatientShareByTokenHash(deps.tokens.hash(token));
  if (!found) throw invalidLink();
  const share = await settleStatus(found, deps);
  if (share.status !== 'ACTIVE') throw invalidLink();
  await requireActiveHospital(share.hospitalId, deps.directory);
  const dataset = await requireLiveDataset(share, deps);
  await assertStillAllowed(share, dataset.teamId, deps);
  return share;
}

/**
 * The sharing policy as it stands when the link is opened (docs/domain.md#share-policy): a hospital that turned external
 * sharing off since, or dropped the recipient's domain, closes the link at its next code request or verification.
 * It answers like any link that does not open.
 */
async function assertStillAllowed(
  share: PatientShareRecord,
  teamId: DatasetRecord['teamId'],
  deps: PatientAccessDeps,
): Promise<void> {
  const { settings } = deps;
  const getTeam = deps.directory.getTeam?.bind(deps.directory);
  if (!settings || !getTeam) return;
  const rules = await sharePolicyFor(share.hospitalId, teamId, {
    settings,
    directory: { getTeam },
    ...(deps.organisation ? { organisation: deps.organisation } : {}),
  });
  try {
    assertRecipientAllowed({ email: share.recipientEmail, phone: share.recipientPhone }, rules);
  } catch {
    throw invalidLink();
  }
}

/** A dataset in the recycle bin answers like a revoked link (docs/domain.md#recycle-bin); restored, it works again. */
async function requireLiveDataset(share: PatientShareRecord, deps: PatientAccessDeps): Promise<DatasetRecord> {
  const dataset = await deps.datasets.get(share.hospitalId, share.datasetId);
  if (!dataset) throw invalidLink();
  return dataset;
}

function assertUnlocked(share: PatientShareRecord, now: string, limits: ShareLimits): void {
  if (share.lockedUntil && Date.parse(share.lockedUntil) > Date.parse(now))
    throw new ShareAccessError('SHARE_LOCKED', { minutes: Math.ceil(limits.lockSeconds / 60) });
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.charAt(0)}***@${domain}`;
}
const maskPhone = (phone: string) => `***${phone.slice(-3)}`;

/**
 * Sends a fresh one-time code to the share's recipient (e-mail first, else SMS). The message names the study by type
 * and date only (no patient data). Rate limited per share and per client.
 */
export async function requestShareCode(
  token: string,
  client: PublicClient,
  deps: PatientAccessDeps,
): Promise<{ otpRequired: boolean; sentTo: string | null }> {
  await limitClient(client, deps);
  const share = await usableShare(token, deps);
  const now = deps.clock.now();
  assertUnlocked(share, now, deps.shareLimits);
  const requests = await deps.shares.hit(`share-code#${share.id}`, deps.shareLimits.lockSeconds, now);
  if (requests > deps.shareLimits.codeRequestsPerShare) throw new ShareAccessError('SHARE_RATE_LIMITED');
  if (!share.recipientEmail && !deps.sms) throw new ShareAccessError('SMS_UNAVAILABLE');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const codeSalt = deps.shareCodes.newSalt();
  await deps.shares.updatePatientShare(
    share,
    {
      codeHash: await deps.shareCodes.hash(share.id, code, codeSalt),
      codeSalt,
      codeExpiresAt: new Date(Date.parse(now) + deps.shareLimits.codeTtlSeconds * 1000).toISOString(),
    },
    share.version,
  );
  const minutes = Math.round(deps.shareLimits.codeTtlSeconds / 60);
  const what = `your ${share.studyType} imaging study of ${share.studyDate}`;
  const link = patientLink(deps.siteOrigin, token);
  let sentTo: string;
  if (share.recipientEmail) {
    const text = `Your code to view ${what} is ${code}. It expires in ${minutes} minutes.\n\nOpen: ${link}\n\nIf you did not expect this message, ignore it.`;
    await deps.mailer.send({
      to: share.recipientEmail,
      subject: 'Your code to view your imaging study',
      text,
      html: `<p>Your code to view ${what} is <strong>${code}</strong>. It expires in ${minutes} minutes.</p><p><a href="${link}">Open your study</a></p><p>If you did not expect this message, ignore it.</p>`,
      tag: 'patient-share-code',
    });
    sentTo = maskEmail(share.recipientEmail);
  } else {
    try {
      await deps.sms!.send({
        to: share.recipientPhone!,
        text: `Your code to view ${what} is ${code}. It expires in ${minutes} minutes.`,
      });
    } catch {
      // A carrier or service refusal is the patient's to retry later, in the catalogue's words (docs/domain.md#shares).
      throw new ShareAccessError('SMS_UNAVAILABLE');
    }
    sentTo = maskPhone(share.recipientPhone!);
  }
  await logAccess(share, 'CODE_SENT', client, deps);
  return { otpRequired: true, sentTo };
}

/**
 * Checks the code; a right one opens the study (counted against max opens) and issues a session bound to the share.
 * After maxWrongCodes wrong codes the link locks for lockSeconds and the owner is told.
 */
export async function verifyShareCode(
  token: string,
  code: string | undefined,
  client: PublicClient,
  deps: PatientAccessDeps,
): Promise<PatientSession> {
  await limitClient(client, deps);
  const share = await usableShare(token, deps);
  const now = deps.clock.now();
  assertUnlocked(share, now, deps.shareLimits);
  // A code stored before salts (no codeSalt) reads as expired: codes live minutes, the patient asks for a new one.
  const right =
    code !== undefined &&
    share.codeHash !== undefined &&
    share.codeSalt !== undefined &&
    share.codeExpiresAt !== undefined &&
    Date.parse(share.codeExpiresAt) > Date.parse(now) &&
    (await deps.shareCodes.matches(share.id, code, share.codeSalt, share.codeHash));
  if (!right) {
    const failed = share.failedAttempts + 1;
    const locks = failed >= deps.shareLimits.maxWrongCodes;
    await deps.shares.updatePatientShare(
      share,
      locks
        ? {
            failedAttempts: 0,
            lockedUntil: new Date(Date.parse(now) + deps.shareLimits.lockSeconds * 1000).toISOString(),
            codeHash: undefined,
            codeSalt: undefined,
            codeExpiresAt: undefined,
          }
        : { failedAttempts: failed },
      share.version,
    );
    await logAccess(share, 'WRONG_CODE', client, deps);
    if (locks) {
      await logAccess(share, 'LOCKED', client, deps);
      await deps.audit.record({
        hospitalId: share.hospitalId,
        datasetId: share.datasetId,
        action: 'PATIENT_SHARE_LOCKED',
        outcome: 'DENIED',
        ...PATIENT_ACTOR(share.id),
        details: { shareId: share.id, lockSeconds: deps.shareLimits.lockSeconds },
      });
      await deps.notifications?.add({
        id: deps.ids.newId(),
        hospitalId: share.hospitalId,
        userId: share.createdByUserId,
        type: 'SHARE_LOCKED',
        title: 'Patient link locked',
        description: `A patient link was locked after ${deps.shareLimits.maxWrongCodes} incorrect codes.`,
        href: `/datasets/${encodeURIComponent(share.datasetId)}`,
        createdAt: now,
        read: false,
      });
      const { settings } = deps;
      await raiseSecurityAlert(
        share.hospitalId,
        {
          type: 'SHARE_LOCKED',
          title: 'Patient link locked',
          description: `Patient link ${share.id} of dataset ${share.datasetId} was locked after ${deps.shareLimits.maxWrongCodes} incorrect codes.`,
          href: `/datasets/${encodeURIComponent(share.datasetId)}`,
        },
        {
          ...deps,
          settings: settings?.getNotificationPreferences
            ? { ...settings, getNotificationPreferences: settings.getNotificationPreferences }
            : undefined,
        },
        share.createdByUserId,
      );
      throw new ShareAccessError('SHARE_LOCKED', { minutes: Math.ceil(deps.shareLimits.lockSeconds / 60) });
    }
    throw new ShareAccessError('SHARE_CODE_INVALID');
  }
  const opened = await deps.shares.updatePatientShare(
    share,
    { opens: share.opens + 1, failedAttempts: 0, codeHash: undefined, codeSalt: undefined, codeExpiresAt: undefined },
    share.version,
  );
  await settleStatus(opened, deps);
  const session = deps.tokens.newToken();
  const expiresAt = new Date(Date.parse(now) + deps.shareLimits.sessionTtlSeconds * 1000).toISOString();
  await deps.shares.putSession({
    sessionHash: deps.tokens.hash(session),
    hospitalId: share.hospitalId,
    datasetId: share.datasetId,
    shareId: share.id,
    expiresAt,
  });
  await logAccess(share, 'OPENED', client, deps);
  await deps.audit.record({
    hospitalId: share.hospitalId,
    datasetId: share.datasetId,
    action: 'PATIENT_SHARE_OPENED',
    outcome: 'SUCCESS',
    ...PATIENT_ACTOR(share.id),
    details: { shareId: share.id, opens: opened.opens },
  });
  if (share.opens === 0)
    await deps.notifications?.add({
      id: deps.ids.newId(),
      hospitalId: share.hospitalId,
      userId: share.createdByUserId,
      type: 'SHARE_OPENED',
      title: 'Patient link opened',
      description: 'A patient opened the study you shared for the first time.',
      href: `/datasets/${encodeURIComponent(share.datasetId)}`,
      createdAt: now,
      read: false,
    });
  return {
    session,
    expiresAt,
    shareId: share.id,
    studyType: share.studyType,
    studyDate: share.studyDate,
    watermark: share.watermark ? watermarkText(share, now) : null,
    scopes: share.scopes,
    allowDownloads: share.allowExport && share.scopes.includes('downloads'),
  };
}

/** Drawn over every view and into every screenshot or download: recipient, date, share id (docs/screens.md#patient-page). */
export function watermarkText(share: PatientShareRecord, now: string): string {
  const recipient = share.recipientEmail ?? share.recipientPhone ?? share.patientAlias;
  return `${recipient} · ${now.slice(0, 10)} · ${share.id}`;
}

/**
 * The session's share, only while the session is live and the share still ACTIVE: revoking, expiry and exhaustion
 * end an open page on its next call. Exhaustion does not end a session already opened (its open was counted).
 */
async function liveSession(session: string, client: PublicClient, deps: PatientAccessDeps) {
  await limitClient(client, deps);
  const record = await deps.shares.getSession(deps.tokens.hash(session));
  if (!record || Date.parse(record.expiresAt) <= Date.parse(deps.clock.now())) throw invalidLink();
  const stored = await deps.shares.getPatientShare(record.hospitalId, record.datasetId, record.shareId);
  if (!stored) throw invalidLink();
  const share = await settleStatus(stored, deps);
  if (share.status === 'REVOKED' || share.status === 'EXPIRED') throw invalidLink();
  // An open page of a deactivated hospital's share stops on its next call, as after a revoke.
  await requireActiveHospital(share.hospitalId, deps.directory);
  await requireLiveDataset(share, deps);
  return share;
}

/**
 * What a patient may download, and how it is marked (docs/domain.md#patient-downloads): the PDF report with the
 * watermark stamped on each page, a PNG thumbnail with it drawn in, a NIfTI volume with it in the header's
 * description. Surfaces and tracts cannot carry it and are never offered as downloads; the screenshot is drawn with it
 * in the page.
 */
function downloadKind(asset: { objectKey: string }): 'pdf' | 'png' | 'nii.gz' | 'nii' | undefined {
  if (asset.objectKey.endsWith('.pdf')) return 'pdf';
  if (asset.objectKey.endsWith('.png')) return 'png';
  if (asset.objectKey.endsWith('.nii.gz')) return 'nii.gz';
  if (asset.objectKey.endsWith('.nii')) return 'nii';
  return undefined;
}

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  'nii.gz': 'application/gzip',
  nii: 'application/octet-stream',
} as const;

const allowsDownloads = (share: PatientShareRecord) => share.allowExport && share.scopes.includes('downloads');

/**
 * The volumes the patient's viewer loads: the base volumes (not the FA and colour-FA maps derived from them), NIfTI
 * only, so each can be marked. Surfaces and tracts cannot carry the mark and the page does not load them.
 */
const isViewerVolume = (a: AssetRecord) =>
  a.type === 'VOLUME' && typeof a.metadata.map !== 'string' && /^nii(\.gz)?$/.test(downloadKind(a) ?? '');

/** The file marked for the share (watermarkText), or undefined where it cannot be marked. */
async function markedCopy(
  share: PatientShareRecord,
  asset: AssetRecord,
  kind: NonNullable<ReturnType<typeof downloadKind>>,
  deps: PatientAccessDeps,
): Promise<Uint8Array | undefined> {
  const original = await deps.objects.get('assets', asset.objectKey);
  const text = watermarkText(share, deps.clock.now());
  if (kind === 'pdf') return watermarkPdf(original, text);
  if (kind === 'png') return watermarkPng(original, text);
  return watermarkNifti(original, text);
}

/**
 * Short-lived URLs (shareLimits.assetUrlTtlSeconds) of what the viewer loads, re-issued through the session, and never
 * of an original (docs/domain.md#patient-shares): each volume is a copy marked for the share (watermarkText in the
 * header's description), made on the first call, kept under the share (patientDownloadKey) and given again on every
 * refresh. A volume that cannot be marked is listed without a URL. Files the share lets the patient download are
 * listed as downloadable, without a URL: patientDownload marks them.
 */
export async function patientStudy(
  session: string,
  client: PublicClient,
  deps: PatientAccessDeps,
): Promise<{
  assets: { id: string; type: string; name: string; url?: string; downloadable: boolean }[];
  urlsExpireAt: string;
}> {
  const share = await liveSession(session, client, deps);
  const downloads = allowsDownloads(share);
  const prefix = datasetPrefix(share.hospitalId, share.datasetId);
  // A held series' assets are not the patient's to see (docs/pipeline.md#burned-in-text).
  const assets = (await releasedAssets(deps.datasets, share.hospitalId, share.datasetId)).filter(
    (a) =>
      a.bucket === 'assets' &&
      a.objectKey.startsWith(prefix) &&
      (isViewerVolume(a) || (downloads && downloadKind(a) !== undefined)),
  );
  const ttl = deps.shareLimits.assetUrlTtlSeconds;
  const viewerUrl = async (a: AssetRecord): Promise<string | undefined> => {
    const kind = downloadKind(a)!;
    const key = patientDownloadKey(share.hospitalId, share.datasetId, share.id, a.id, kind);
    // Its first byte says whether the copy is made: the function reads and writes assets, it does not list them.
    const made = await deps.objects.getRange('assets', key, 0, 1).then(
      () => true,
      () => false,
    );
    if (!made) {
      // An original that cannot be read is not shown, as one that cannot be marked: never its own URL.
      const marked = await markedCopy(share, a, kind, deps).catch(() => undefined);
      if (!marked) return undefined;
      await deps.objects.put('assets', key, marked, CONTENT_TYPES[kind]);
    }
    return deps.objects.presignGet('assets', key, ttl);
  };
  return {
    assets: await Promise.all(
      assets.map(async (a) => {
        const url = isViewerVolume(a) ? await viewerUrl(a) : undefined;
        return {
          id: a.id,
          type: a.type,
          name: a.label,
          ...(url ? { url } : {}),
          downloadable: downloads && downloadKind(a) !== undefined,
        };
      }),
    ),
    urlsExpireAt: new Date(Date.parse(deps.clock.now()) + ttl * 1000).toISOString(),
  };
}

/**
 * A download the share allows: the file is marked for this recipient (watermarkText: recipient, date, share id),
 * written beside the dataset's assets under the share (patientDownloadKey), logged, and given as a short-lived URL.
 */
export async function patientDownload(
  session: string,
  assetId: string,
  client: PublicClient,
  deps: PatientAccessDeps,
): Promise<{ url: string }> {
  const share = await liveSession(session, client, deps);
  if (!allowsDownloads(share)) throw new NotFoundError('ASSET_NOT_FOUND');
  const asset = (await releasedAssets(deps.datasets, share.hospitalId, share.datasetId)).find((a) => a.id === assetId);
  const kind = asset ? downloadKind(asset) : undefined;
  if (
    !asset ||
    !kind ||
    asset.bucket !== 'assets' ||
    !asset.objectKey.startsWith(datasetPrefix(share.hospitalId, share.datasetId))
  )
    throw new NotFoundError('ASSET_NOT_FOUND');
  const marked = await markedCopy(share, asset, kind, deps);
  if (!marked) throw new NotFoundError('ASSET_NOT_FOUND');
  const key = patientDownloadKey(share.hospitalId, share.datasetId, share.id, asset.id, kind);
  await deps.objects.put('assets', key, marked, CONTENT_TYPES[kind]);
  await logAccess(share, 'DOWNLOAD', client, deps);
  return { url: await deps.objects.presignGet('assets', key, deps.shareLimits.assetUrlTtlSeconds) };
}
