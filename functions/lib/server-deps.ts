// The ports a handler may reach, as one type that imports only shared/ port types: the adapters that build it
// (functions/adapters) and the accessor that holds it (deps.ts) both import it, never each other (no cycles, type-only
// ones included: docs/architecture.md#import-boundaries).
import type { Directory } from '#shared/domain/auth/ports.ts';
import type { DatasetRepository, PipelineStarter, Pseudonymizer } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock, IdGenerator, PageTokens } from '#shared/domain/ports.ts';
import type { DeidentificationPolicies } from '#shared/domain/settings/ports.ts';
import type { IdentityAdmin, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { NotificationInbox, NotificationLedger } from '#shared/domain/notifications/ports.ts';
import type {
  IdentityAdmin as MemberIdentity,
  InvitationDirectory,
  InvitationRepository,
  Mailer,
  TokenMint,
} from '#shared/domain/invitations/ports.ts';
import type { RunSlotStore } from '#shared/domain/pipeline/run-slots.ts';
import type { AvatarSigner } from '#shared/domain/settings/me-settings.ts';
import type {
  IdentityProviders,
  JsonFetcher,
  SamlMetadataReader,
  SettingsStore,
  SsoStore,
} from '#shared/domain/settings/ports.ts';
import type { HostedLogin } from '#shared/domain/settings/sso.ts';
import type { ScimTokenStore } from '#shared/domain/scim/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { ShareCodeHasher, ShareLimits, ShareStore, SmsSender } from '#shared/domain/shares/ports.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';
import type { IntakeStore } from '#shared/domain/intake/ports.ts';
import type { DicomIndex } from '#shared/domain/intake/dicom-index.ts';
import type { IntakeEndpoints, IntegrationStore, MachineClients } from '#shared/domain/integrations/ports.ts';
import type { JobStarter, JobStore } from '#shared/domain/jobs/ports.ts';
import type { DigestSigner, DigestStore } from '#shared/domain/audit/digests.ts';
import type { Idempotency } from './idempotency.ts';

export type HealthProbe = {
  /** Names of the services that did not answer (table, buckets), empty when all are up. */
  failing(): Promise<string[]>;
};

/** Everything a handler may reach, as ports. Built once per Lambda container from the environment. */
export type ServerDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  /** The audit chain's signed digests: their write-once bucket and the key that signs them (docs/domain.md#signed-digests). */
  digests: { store: DigestStore; signer: DigestSigner };
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
  /** What delivery keeps beside the inbox: once-only claims, digest items, recent sign-in attempts. */
  notificationLedger: NotificationLedger;
  health: HealthProbe;
  invitations: InvitationRepository;
  invitationDirectory: InvitationDirectory;
  mailer: Mailer;
  tokens: TokenMint;
  /** Team and patient shares, their sessions, access logs and rate counters (docs/domain.md#shares). */
  shares: ShareStore;
  /** Text messages for patient codes (SNS); without one, a share with a phone number only cannot send its code. */
  sms?: SmsSender;
  shareLimits: ShareLimits;
  /** The salted slow hash of patient share codes. */
  shareCodes: ShareCodeHasher;
  /** Origin of the site, where links in e-mail open. */
  siteOrigin: string;
  /** DICOM intake (docs/dicom-intake.md): integrations, their app clients, studies being received. */
  integrations: IntegrationStore;
  machineClients: MachineClients;
  intake: IntakeStore;
  /** What DICOMweb searches and retrieves: the index of de-identified instances (docs/dicom-intake.md#the-dicomweb-index). */
  dicomIndex: DicomIndex;
  intakeEndpoints: IntakeEndpoints;
  /** Hospitals' single sign-on configurations and the e-mail domains they own (docs/sso.md). */
  sso: SsoStore;
  /** Hospitals' SCIM provisioning tokens, kept as their SHA-256 (docs/sso.md#provisioning-scim). */
  scimTokens: ScimTokenStore;
  /** The user pool's OIDC and SAML providers and the site client's list of them. */
  identityProviders: IdentityProviders;
  /** Reads an identity provider's discovery document and key set (the connection test). */
  fetchJson: JsonFetcher;
  /** Reads and checks a SAML provider's metadata, by URL or file (docs/sso.md#saml-providers). */
  samlMetadata: SamlMetadataReader;
  /** Where single sign-on starts: the user pool's hosted login for the site's app client. */
  hostedLogin: HostedLogin;
  clock: Clock;
  ids: IdGenerator;
  /** Long work as jobs (docs/jobs.md): their items and results, and the worker they are handed to. */
  jobs: JobStore;
  jobStarter: JobStarter;
  /** Units of work a retry must not repeat (functions/lib/idempotency.ts): records in the table. */
  idempotency: Idempotency;
};
