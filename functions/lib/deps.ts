import type { Directory } from '#shared/domain/auth/ports.ts';
import type {
  AuditLog,
  Clock,
  DatasetRepository,
  IdGenerator,
  PageTokens,
  PipelineStarter,
  Pseudonymizer,
} from '#shared/domain/datasets/ports.ts';
import type { DeidentificationPolicies } from '#shared/domain/hospitals/ports.ts';
import type { IdentityAdmin, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { NotificationInbox } from '#shared/domain/notifications/ports.ts';
import type {
  IdentityAdmin as MemberIdentity,
  InvitationDirectory,
  InvitationRepository,
  Mailer,
  TokenMint,
} from '#shared/domain/invitations/ports.ts';
import type { RunSlotStore } from '#shared/domain/pipeline/run-slots.ts';
import type { AvatarSigner } from '#shared/domain/policies/me-settings.ts';
import type { SettingsStore } from '#shared/domain/policies/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { ShareLimits, ShareStore, SmsSender } from '#shared/domain/shares/ports.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { IntakeStore } from '#shared/domain/intake/ports.ts';
import type { Idempotency } from './idempotency.ts';
import type { IntakeEndpoints, IntegrationStore, MachineClients } from '#shared/domain/integrations/ports.ts';

export type HealthProbe = {
  /** Names of the services that did not answer (table, buckets), empty when all are up. */
  failing(): Promise<string[]>;
};

/** Everything a handler may reach, as ports. Built once per Lambda container from the environment. */
export type ServerDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  directory: Directory;
  /** Hospitals, departments, teams and users: index lists, updates and counters. */
  organisation: OrganisationStore;
  /** The user pool's administration (groups, disable/enable, global sign-out; identities of accepted invitations). */
  identity: IdentityAdmin & MemberIdentity;
  policies: DeidentificationPolicies;
  /** Policies of every level, user settings and notifications (docs/domain.md#policies-and-inheritance). */
  settings: SettingsStore;
  avatars: AvatarSigner;
  uploads: UploadRepository;
  objects: ObjectStore;
  pipeline: PipelineStarter;
  /** Per-hospital limit of pipeline runs at once. */
  runSlots: RunSlotStore;
  pageTokens: PageTokens;
  pseudonymizer: Pseudonymizer;
  pseudonymSecret(): Promise<string>;
  /** Each user's notifications (the bell). */
  notifications: NotificationInbox;
  health: HealthProbe;
  invitations: InvitationRepository;
  invitationDirectory: InvitationDirectory;
  mailer: Mailer;
  tokens: TokenMint;
  /** Team and patient shares, their sessions, access logs and rate counters (docs/domain.md#shares). */
  shares: ShareStore;
  /** Text messages for patient codes: the twin's outbox; absent in the cloud until an SMS adapter exists. */
  sms?: SmsSender;
  shareLimits: ShareLimits;
  /** Origin of the site, where links in e-mail open. */
  siteOrigin: string;
  /** DICOM intake (docs/dicom-intake.md): integrations, their app clients, studies being received. */
  integrations: IntegrationStore;
  machineClients: MachineClients;
  intake: IntakeStore;
  intakeEndpoints: IntakeEndpoints;
  clock: Clock;
  ids: IdGenerator;
  /** Units of work a retry must not repeat (functions/lib/idempotency.ts): records in the table. */
  idempotency: Idempotency;
};

let current: ServerDeps | undefined;

/** The AWS adapters are imported lazily so that tests with fakes never load the SDK clients. */
export async function getDeps(): Promise<ServerDeps> {
  if (current) return current;
  current = await (await import('#functions/adapters/index.ts')).createAwsDeps();
  return current;
}

/** Tests and the local twin install their own ports (or reset to rebuild from env). */
export function setDeps(deps: ServerDeps | undefined): void {
  current = deps;
}
