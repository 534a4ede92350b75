import type { Role } from '#shared/vocabulary/roles.ts';
import { DICOMWEB_SCOPES, type DicomWebScope } from '#shared/vocabulary/integrations.ts';

/**
 * The route table: the one list of API routes. The CDK stack builds API Gateway resources and one Lambda
 * per domain from it, any other router of the API matches requests with it (docs/architecture.md#shared-definitions),
 * the OpenAPI document is generated from it, and tests/integration/access.test.ts drives every entry as every role
 * and as another hospital.
 *
 * `roles` is the coarse gate applied before the handler runs (the authorizer's groups check); handlers
 * still apply permissions and ownership from the verified user record. Paths use API Gateway templates.
 */
export const API_DOMAINS = [
  'health',
  'auth',
  'hospitals',
  'settings',
  'departments',
  'teams',
  'users',
  'invitations',
  'datasets',
  'uploads',
  'shares',
  'patient-access',
  'dashboards',
  'usage',
  'audit',
  'reports',
  'notifications',
  'integrations',
  'dicomweb',
  'jobs',
  'scim',
] as const;
export type ApiDomain = (typeof API_DOMAINS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteDefinition = {
  /** Stable key used by the domain handler to dispatch: "<METHOD> <path>". */
  method: HttpMethod;
  path: `/api/${string}` | '/api' | `/dicomweb/${string}` | '/dicomweb' | `/scim/v2/${string}`;
  domain: ApiDomain;
  /**
   * Public routes skip the authorizer; `user` routes need a verified Cognito ID token; `client` routes (DICOMweb,
   * docs/dicom-intake.md) need a Cognito access token of an integration's app client carrying every scope of `scopes`;
   * `scim` routes (docs/sso.md#provisioning-scim) need a hospital's SCIM bearer token, which no Cognito authorizer
   * knows: the gateway lets them through to the handler, which looks the token's SHA-256 up before anything else.
   */
  auth: 'public' | 'user' | 'client' | 'scim';
  /** Roles allowed past the gate; undefined = every signed-in role. */
  roles?: readonly Role[];
  /** OAuth 2.0 scopes a `client` route requires (the resource server's, DICOMWEB_SCOPES). */
  scopes?: readonly DicomWebScope[];
  summary: string;
};

const READ_SCOPE = [DICOMWEB_SCOPES.read] as const;
const WRITE_SCOPE = [DICOMWEB_SCOPES.write] as const;

const STAFF: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'];
const UPLOADERS: readonly Role[] = ['TEAM_LEAD', 'TEAM_MEMBER'];
const HOSPITAL_ADMINS: readonly Role[] = ['HOSPITAL_ADMIN'];
const LEADS: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD'];
/** The visualizer is open to every signed-in role of the hospital (docs/roles-and-permissions.md#api-access), so a guest may read one dataset of their team. */
const VIEWERS: readonly Role[] = [...STAFF, 'GUEST'];
const SUPER_ADMINS: readonly Role[] = ['SUPER_ADMIN'];
/**
 * Routes a team's lead acts on and may delegate: a member or guest granted the permission passes the gate, and the
 * core checks the permission on the team (docs/roles-and-permissions.md#permission-checks).
 */
const TEAM_DELEGATES: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER', 'GUEST'];
/** Reports: the super admin and hospital admins for a hospital, anyone holding VIEW_ANALYTICS for their own team. */
const ANALYSTS: readonly Role[] = ['SUPER_ADMIN', ...TEAM_DELEGATES];
/** Users are managed by the super admin (any hospital) and hospital admins (their own). */
const USER_ADMINS: readonly Role[] = ['SUPER_ADMIN', 'HOSPITAL_ADMIN'];
/** Jobs are started by admins (bulk invitations, a hospital's deactivation), who follow them (docs/jobs.md). */
const JOB_OWNERS: readonly Role[] = ['SUPER_ADMIN', 'HOSPITAL_ADMIN'];

export const ROUTES = [
  {
    method: 'GET',
    path: '/api/health',
    domain: 'health',
    auth: 'public',
    summary: 'Liveness of the API and of the services it reaches',
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    domain: 'health',
    auth: 'public',
    summary: 'OpenAPI 3.1 description generated from the zod schemas',
  },

  {
    method: 'GET',
    path: '/api/me',
    domain: 'auth',
    auth: 'user',
    summary: 'The signed-in user, their hospital and team',
  },
  {
    method: 'GET',
    path: '/api/auth/sso-route',
    domain: 'auth',
    auth: 'public',
    summary: "Where an e-mail signs in: the hosted login of its hospital's identity provider, or the password form",
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    domain: 'auth',
    auth: 'user',
    summary: 'Records the sign-out in the audit log',
  },

  {
    method: 'GET',
    path: '/api/datasets',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: "Datasets of the caller's hospital (team-scoped for leads and members), newest first, paginated",
  },
  {
    method: 'POST',
    path: '/api/datasets',
    domain: 'datasets',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Create a dataset with its patient context (status CREATED)',
  },
  {
    method: 'GET',
    path: '/api/datasets/recycle-bin',
    domain: 'datasets',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's recycle bin: deleted datasets, restorable until purged 30 days after deletion",
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}',
    domain: 'datasets',
    auth: 'user',
    roles: VIEWERS,
    summary: 'One dataset with its series and processed assets',
  },
  {
    method: 'PATCH',
    path: '/api/datasets/{id}',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: 'Update the patient context of a CREATED dataset',
  },
  {
    method: 'DELETE',
    path: '/api/datasets/{id}',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary:
      "Delete a dataset (DELETE_DATA: one's own; a lead the team's, an admin any): to the recycle bin, with a reason",
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/series',
    domain: 'datasets',
    auth: 'user',
    roles: VIEWERS,
    summary: 'Series of a dataset with classification',
  },
  {
    method: 'PATCH',
    path: '/api/datasets/{id}/series/selection',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: 'Choose which series are selected',
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/series/{seriesId}/classify',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: 'Override a series classification (stored as MANUAL)',
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/series/{seriesId}/release',
    domain: 'datasets',
    auth: 'user',
    roles: LEADS,
    summary:
      'Release a series held for possible burned-in text (team lead or hospital admin); a COMPLETE dataset is processed again',
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/series/{seriesId}/preview',
    domain: 'datasets',
    auth: 'user',
    roles: LEADS,
    summary:
      'One frame of a series held for possible burned-in text, as a PNG, for its review before release (team lead or hospital admin)',
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/series/{seriesId}/redact',
    domain: 'datasets',
    auth: 'user',
    roles: LEADS,
    summary:
      'Blank rectangles in every frame of a held series, then release it (team lead or hospital admin); a COMPLETE dataset is processed again',
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/assets',
    domain: 'datasets',
    auth: 'user',
    roles: VIEWERS,
    summary: 'Processed assets with short-lived presigned URLs',
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/history',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: "The dataset's audit history",
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/retry',
    domain: 'datasets',
    auth: 'user',
    roles: STAFF,
    summary: 'Restart the pipeline of a FAILED dataset',
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/restore',
    domain: 'datasets',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Restore a dataset from the recycle bin into its lists',
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/exports',
    domain: 'datasets',
    auth: 'user',
    roles: VIEWERS,
    summary:
      "Export a COMPLETE dataset as a ZIP (BIDS, DICOM, NIfTI or derived assets): EXPORT_DATA, and a share's export permission; 202 with the job",
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/exports/{exportId}',
    domain: 'datasets',
    auth: 'user',
    roles: VIEWERS,
    summary: "The caller's own export of the dataset: its progress, then an expiring link to the ZIP",
  },
  {
    method: 'PUT',
    path: '/api/datasets/{id}/legal-hold',
    domain: 'datasets',
    auth: 'user',
    roles: LEADS,
    summary: 'Put or lift a legal hold: a held dataset is never deleted, by hand or by retention',
  },

  {
    method: 'POST',
    path: '/api/datasets/{id}/upload/session',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Open (or resume) the upload session of a dataset: the study packed as one multipart archive',
  },
  {
    method: 'GET',
    path: '/api/uploads/{sessionId}',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Upload session state with the parts already stored (for resume)',
  },
  {
    method: 'POST',
    path: '/api/uploads/{sessionId}/parts',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Presigned URLs for a batch of parts of the study archive',
  },
  {
    method: 'POST',
    path: '/api/uploads/{sessionId}/complete',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Complete the archive upload and start the dataset pipeline',
  },

  {
    method: 'GET',
    path: '/api/hospitals',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary:
      'Hospitals with the summary cards (super admin): search by name or city, plan and status filters, paginated',
  },
  {
    method: 'POST',
    path: '/api/hospitals',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary: 'Add a hospital with its plan and first hospital admin (invited)',
  },
  {
    method: 'GET',
    path: '/api/hospitals/{hospitalId}',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary: 'One hospital with its counts',
  },
  {
    method: 'PATCH',
    path: '/api/hospitals/{hospitalId}',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary: "Edit a hospital's details and plan",
  },
  {
    method: 'DELETE',
    path: '/api/hospitals/{hospitalId}',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary:
      'Delete (deactivate) a hospital: typed name, and acknowledgement when it has users or datasets; data stays. 202 with the job',
  },
  {
    method: 'POST',
    path: '/api/hospitals/{hospitalId}/restore',
    domain: 'hospitals',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary: 'Restore a deactivated hospital and its users: 202 with the job',
  },
  {
    method: 'GET',
    path: '/api/hospital-admin/overview',
    domain: 'hospitals',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Figures and sidebar badges of the hospital-admin area, computed from data',
  },

  {
    method: 'GET',
    path: '/api/departments',
    domain: 'departments',
    auth: 'user',
    roles: [...VIEWERS, 'SUPER_ADMIN'],
    summary: "The hospital's departments with team and member counts",
  },
  {
    method: 'POST',
    path: '/api/departments',
    domain: 'departments',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Create a department',
  },
  {
    method: 'PATCH',
    path: '/api/departments/{departmentId}',
    domain: 'departments',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Rename or describe a department',
  },
  {
    method: 'DELETE',
    path: '/api/departments/{departmentId}',
    domain: 'departments',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Delete a department that has no teams and no members',
  },

  {
    method: 'GET',
    path: '/api/teams',
    domain: 'teams',
    auth: 'user',
    roles: [...VIEWERS, 'SUPER_ADMIN'],
    summary: "Teams of the hospital (hospital admin), or the caller's own team",
  },
  {
    method: 'POST',
    path: '/api/teams',
    domain: 'teams',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Create a team in a department',
  },
  {
    method: 'GET',
    path: '/api/teams/{teamId}',
    domain: 'teams',
    auth: 'user',
    roles: VIEWERS,
    summary: 'One team with its overview figures (its own members, or a hospital admin)',
  },
  {
    method: 'PATCH',
    path: '/api/teams/{teamId}',
    domain: 'teams',
    auth: 'user',
    roles: LEADS,
    summary: "Edit a team (hospital admin), or its settings (the team's lead)",
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/archive',
    domain: 'teams',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Archive a team (members keep their accounts and leave the team)',
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/restore',
    domain: 'teams',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Bring an archived team back',
  },
  {
    method: 'GET',
    path: '/api/teams/{teamId}/members',
    domain: 'teams',
    auth: 'user',
    roles: VIEWERS,
    summary: "The team's members: role, permissions, status, last active",
  },
  // The lead and hospital admins by role, a member or guest granted VIEW_ANALYTICS (checked by the domain).
  {
    method: 'GET',
    path: '/api/teams/{teamId}/analytics',
    domain: 'teams',
    auth: 'user',
    roles: VIEWERS,
    summary: "The team's analytics for a period: datasets, completions, storage added, active members, by type and day",
  },
  {
    method: 'PATCH',
    path: '/api/teams/{teamId}/members/{memberId}/role',
    domain: 'teams',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: "Change a member's team role (and their user role and group)",
  },
  {
    method: 'PATCH',
    path: '/api/teams/{teamId}/members/{memberId}/permissions',
    domain: 'teams',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: "Change a member's permissions",
  },
  {
    method: 'DELETE',
    path: '/api/teams/{teamId}/members/{memberId}',
    domain: 'teams',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: 'Remove a member from the team (the account stays)',
  },

  {
    method: 'GET',
    path: '/api/users',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Users of a hospital: search, role, department, team and status filters, paginated',
  },
  {
    method: 'GET',
    path: '/api/users/{userId}',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'One user',
  },
  {
    method: 'PATCH',
    path: '/api/users/{userId}/role',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: "Change a user's role: the record and the identity provider's group together",
  },
  {
    method: 'PATCH',
    path: '/api/users/{userId}/team',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Move a user into a team (or out of any)',
  },
  {
    method: 'POST',
    path: '/api/users/{userId}/disable',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Disable a user: no sign-in, no API (the last active hospital admin is protected)',
  },
  {
    method: 'POST',
    path: '/api/users/{userId}/enable',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Enable a disabled user',
  },
  {
    method: 'POST',
    path: '/api/users/{userId}/reset-mfa',
    domain: 'users',
    auth: 'user',
    roles: USER_ADMINS,
    summary: "Reset a user's two-factor: their authenticator app turned off and every session ended",
  },

  {
    method: 'GET',
    path: '/api/invitations',
    domain: 'invitations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary:
      "A page of the hospital's invitations, newest first, with counts per status (Invitation Center, Pending tab)",
  },
  {
    method: 'POST',
    path: '/api/invitations',
    domain: 'invitations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Invite one person by e-mail (single invitation); expires after 7 days',
  },
  {
    method: 'POST',
    path: '/api/invitations/bulk',
    domain: 'invitations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Invite many people at once (bulk rows, Basic or Strict rules, validated again): 202 with the job',
  },
  {
    method: 'GET',
    path: '/api/jobs/{jobId}',
    domain: 'jobs',
    auth: 'user',
    roles: JOB_OWNERS,
    summary: "A job of the caller's hospital: its status and progress (docs/jobs.md)",
  },
  {
    method: 'GET',
    path: '/api/jobs/{jobId}/results',
    domain: 'jobs',
    auth: 'user',
    roles: JOB_OWNERS,
    summary: "A job's per-item results in order, paginated",
  },
  {
    method: 'POST',
    path: '/api/invitations/{invitationId}/resend',
    domain: 'invitations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Send a pending invitation again with a new link and a refreshed expiry',
  },
  {
    method: 'DELETE',
    path: '/api/invitations/{invitationId}',
    domain: 'invitations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Cancel a pending invitation (its link stops working)',
  },
  {
    method: 'GET',
    path: '/api/teams/{teamId}/invitations',
    domain: 'invitations',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary:
      "A page of the team's invitations, newest first, with pending, sent and accepted counts (whoever may invite to the team)",
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/invitations',
    domain: 'invitations',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: 'Invite a team member with a team role and permissions; expires in 1 to 30 days',
  },
  {
    method: 'POST',
    path: '/api/teams/{teamId}/invitations/{invitationId}/resend',
    domain: 'invitations',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: 'Send a pending team invitation again with a new link and a refreshed expiry',
  },
  {
    method: 'DELETE',
    path: '/api/teams/{teamId}/invitations/{invitationId}',
    domain: 'invitations',
    auth: 'user',
    roles: TEAM_DELEGATES,
    summary: 'Cancel a pending team invitation',
  },
  {
    method: 'GET',
    path: '/api/invitations/preview',
    domain: 'invitations',
    auth: 'public',
    summary: 'What an invitation link invites to (hospital, team, role), for the invitee; the token is the key',
  },
  {
    method: 'POST',
    path: '/api/invitations/accept',
    domain: 'invitations',
    auth: 'public',
    summary: 'Accept an invitation: name and password; creates the ACTIVE user in the right group',
  },
  {
    method: 'POST',
    path: '/api/invitations/decline',
    domain: 'invitations',
    auth: 'public',
    summary: 'Decline an invitation (its link stops working)',
  },

  {
    method: 'GET',
    path: '/api/hospital-admin/deidentification-policy',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's de-identification policy: default options and those uploaders may change",
  },
  {
    method: 'PUT',
    path: '/api/hospital-admin/deidentification-policy',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Set the hospital's de-identification policy (audited with before and after)",
  },

  {
    method: 'GET',
    path: '/api/me/profile',
    domain: 'auth',
    auth: 'user',
    summary: "The caller's profile: name, phone, specialization and a short-lived avatar URL",
  },
  {
    method: 'PUT',
    path: '/api/me/profile',
    domain: 'auth',
    auth: 'user',
    summary: "Change the caller's name, phone and specialization",
  },
  {
    method: 'POST',
    path: '/api/me/avatar',
    domain: 'auth',
    auth: 'user',
    summary: 'A presigned PUT for a new avatar (2MB, JPG, GIF or PNG)',
  },
  {
    method: 'GET',
    path: '/api/me/notification-preferences',
    domain: 'auth',
    auth: 'user',
    summary: "The caller's notification preferences (the defaults until changed)",
  },
  {
    method: 'PUT',
    path: '/api/me/notification-preferences',
    domain: 'auth',
    auth: 'user',
    summary: "Set the caller's notification preferences (audited with before and after)",
  },
  {
    method: 'GET',
    path: '/api/system/policy',
    domain: 'settings',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'The system maximums every hospital policy sits under',
  },
  {
    method: 'PUT',
    path: '/api/system/policy',
    domain: 'settings',
    auth: 'user',
    roles: SUPER_ADMINS,
    summary: 'Set the system maximums (super admin; audited with before and after)',
  },
  {
    method: 'GET',
    path: '/api/hospital-admin/settings',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's profile and policy, the system maximums above it and the storage in use",
  },
  {
    method: 'PUT',
    path: '/api/hospital-admin/settings',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Save the hospital's profile and policy (never looser than the system maximums; audited)",
  },
  {
    method: 'GET',
    path: '/api/hospital-admin/sso',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary:
      "The hospital's single sign-on: its OIDC or SAML provider, e-mail domains and role mapping (never the secret)",
  },
  {
    method: 'PUT',
    path: '/api/hospital-admin/sso',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary:
      "Connect or update the hospital's OIDC or SAML provider in the user pool; switched on only after a passing test or readable metadata (audited)",
  },
  {
    method: 'DELETE',
    path: '/api/hospital-admin/sso',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Disconnect the hospital's identity provider and free its e-mail domains (audited)",
  },
  {
    method: 'POST',
    path: '/api/hospital-admin/sso/test',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Test an OIDC provider: its discovery document, issuer, endpoints and signing keys',
  },
  {
    method: 'POST',
    path: '/api/hospital-admin/sso/saml-metadata',
    domain: 'settings',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Read a SAML provider's metadata (URL or file): its entity ID, sign-on URL and signing certificates",
  },
  {
    method: 'GET',
    path: '/api/teams/{teamId}/policy',
    domain: 'teams',
    auth: 'user',
    roles: LEADS,
    summary: "The team's policy overrides, what it inherits and the policy in force (its lead or a hospital admin)",
  },
  {
    method: 'PUT',
    path: '/api/teams/{teamId}/policy',
    domain: 'teams',
    auth: 'user',
    roles: LEADS,
    summary: "Override the team's policy, only more restrictively than the hospital's (audited)",
  },
  {
    method: 'GET',
    path: '/api/audit',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary:
      "The hospital's audit log, newest first: search by actor, target (dataset or user), action and period, paginated",
  },
  {
    method: 'GET',
    path: '/api/audit/export.csv',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'The filtered audit log as CSV (the export is itself audited)',
  },
  {
    method: 'POST',
    path: '/api/audit/exports',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary:
      'Export the filtered audit log as CSV without a row cap, as a job: 202 with the job (docs/jobs.md; audited at the end)',
  },
  {
    method: 'GET',
    path: '/api/audit/exports/{exportId}',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary: "The caller's own audit export: its progress, then an expiring link to the CSV",
  },
  {
    method: 'POST',
    path: '/api/audit/verify',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary: "Walk the hospital's audit chain and report the first broken link",
  },
  {
    method: 'POST',
    path: '/api/audit/verifications',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Verify the whole audit chain and every signed digest as a job: 202 with the job (docs/jobs.md)',
  },
  {
    method: 'GET',
    path: '/api/compliance',
    domain: 'audit',
    auth: 'user',
    roles: USER_ADMINS,
    summary:
      'Compliance figures computed from data: de-identification and its options, held series, users, audit chain',
  },
  {
    method: 'GET',
    path: '/api/reports',
    domain: 'reports',
    auth: 'user',
    roles: ANALYSTS,
    summary: 'Studies per month by type, status and team, storage growth, active users and processing times',
  },
  {
    method: 'POST',
    path: '/api/reports/recount',
    domain: 'reports',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Recount the report counters from the hospital's datasets (those stored before them): 202 with the job",
  },
  {
    method: 'GET',
    path: '/api/dashboard',
    domain: 'dashboards',
    auth: 'user',
    summary: "The caller's role dashboard: figures from counters, the pipeline, recent and team activity",
  },
  {
    method: 'GET',
    path: '/api/usage',
    domain: 'usage',
    auth: 'user',
    roles: USER_ADMINS,
    summary: 'Storage and compute against plan limits, per hospital and team per day, the next bill and the invoice',
  },
  {
    method: 'GET',
    path: '/api/notifications',
    domain: 'notifications',
    auth: 'user',
    summary: "The caller's 50 newest notifications and how many are unread",
  },
  {
    method: 'POST',
    path: '/api/notifications/read',
    domain: 'notifications',
    auth: 'user',
    summary: "Mark the caller's notifications read (the given ids, or all listed)",
  },

  // Shares (docs/domain.md#shares): the dataset's owner, their lead or a hospital admin; the core checks ownership.
  {
    method: 'GET',
    path: '/api/datasets/{id}/team-shares',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: "The dataset's team shares (its owner, their lead or a hospital admin)",
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/team-shares',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: 'Share the dataset with chosen members of its team or with another team of the hospital',
  },
  {
    method: 'DELETE',
    path: '/api/datasets/{id}/team-shares/{shareId}',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: 'Revoke a team share (the dataset disappears for its recipients at once)',
  },
  {
    method: 'GET',
    path: '/api/teams/{teamId}/dicom-shares',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: "The team page's DICOM shares tab: shares of the team's datasets",
  },
  {
    method: 'GET',
    path: '/api/shares/received',
    domain: 'shares',
    auth: 'user',
    roles: VIEWERS,
    summary: 'Datasets shared with the caller or their team (the "Shared with you" items of the Datasets page)',
  },
  // The approval queue (docs/domain.md#share-policy): the lead of the dataset's team or a hospital admin decides.
  {
    method: 'GET',
    path: '/api/shares/approvals',
    domain: 'shares',
    auth: 'user',
    roles: LEADS,
    summary: "Shares waiting for approval: a lead's team's, or every one of the hospital for a hospital admin",
  },
  {
    method: 'POST',
    path: '/api/shares/approvals/{shareId}/approve',
    domain: 'shares',
    auth: 'user',
    roles: LEADS,
    summary: 'Approve a waiting share: the team share is granted, the patient link opens',
  },
  {
    method: 'POST',
    path: '/api/shares/approvals/{shareId}/refuse',
    domain: 'shares',
    auth: 'user',
    roles: LEADS,
    summary: 'Refuse a waiting share: the recipient never gets it',
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/patient-shares',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: "The dataset's patient shares with their status",
  },
  {
    method: 'POST',
    path: '/api/datasets/{id}/patient-shares',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: 'Share the study with a patient through a guarded link (bounded by the policy in force)',
  },
  {
    method: 'DELETE',
    path: '/api/datasets/{id}/patient-shares/{shareId}',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: 'Revoke a patient share (the link and any open page stop working at once)',
  },
  {
    method: 'GET',
    path: '/api/datasets/{id}/patient-shares/{shareId}/access-log',
    domain: 'shares',
    auth: 'user',
    roles: STAFF,
    summary: "A patient share's access log: codes sent, wrong codes, locks, opens and downloads",
  },
  // The patient's page is public: the link's token, then a session issued by the one-time code, is the key.
  {
    method: 'POST',
    path: '/api/patient-access/code',
    domain: 'patient-access',
    auth: 'public',
    summary: "Send a one-time code to the share's recipient (e-mail or text message)",
  },
  {
    method: 'POST',
    path: '/api/patient-access/verify',
    domain: 'patient-access',
    auth: 'public',
    summary: 'Check the one-time code; a right one opens the study and issues a session bound to the share',
  },
  {
    method: 'POST',
    path: '/api/patient-access/study',
    domain: 'patient-access',
    auth: 'public',
    summary: "Short-lived URLs of the assets the share's scopes allow, re-issued through the session",
  },
  {
    method: 'POST',
    path: '/api/patient-access/download',
    domain: 'patient-access',
    auth: 'public',
    summary: 'A download the share allows, recorded in its access log',
  },
  // Integrations (docs/dicom-intake.md): a hospital admin's DICOMweb clients and DICOM nodes.
  {
    method: 'GET',
    path: '/api/integrations',
    domain: 'integrations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's DICOMweb clients and DICOM nodes, active and revoked",
  },
  {
    method: 'POST',
    path: '/api/integrations/dicomweb-clients',
    domain: 'integrations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Create a DICOMweb client (OAuth 2.0 client credentials); its secret is shown once',
  },
  {
    method: 'POST',
    path: '/api/integrations/dicom-nodes',
    domain: 'integrations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Create a DICOM node: the calling AE title and the source addresses allowed to send by C-STORE',
  },
  {
    method: 'DELETE',
    path: '/api/integrations/{integrationId}',
    domain: 'integrations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Revoke a DICOMweb client or a DICOM node (it can no longer send or read)',
  },
  {
    method: 'POST',
    path: '/api/integrations/dicomweb-index',
    domain: 'integrations',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Build the DICOMweb index of the hospital's datasets stored before it existed: 202 with the job",
  },

  // DICOMweb (PS3.18) for the integrations' app clients: STOW-RS, QIDO-RS and WADO-RS over de-identified instances.
  {
    method: 'POST',
    path: '/dicomweb/studies',
    domain: 'dicomweb',
    auth: 'client',
    scopes: WRITE_SCOPE,
    summary: 'STOW-RS: store instances (multipart/related; type="application/dicom")',
  },
  {
    method: 'POST',
    path: '/dicomweb/studies/{study}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: WRITE_SCOPE,
    summary: 'STOW-RS: store instances of one study',
  },
  {
    method: 'POST',
    path: '/dicomweb/studies/{study}/commit',
    domain: 'dicomweb',
    auth: 'client',
    scopes: WRITE_SCOPE,
    summary: 'Commit a received study: its dataset enters the pipeline now instead of after the quiet time',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'QIDO-RS: search for studies',
  },
  {
    method: 'GET',
    path: '/dicomweb/series',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'QIDO-RS: search for series',
  },
  {
    method: 'GET',
    path: '/dicomweb/instances',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'QIDO-RS: search for instances',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: "QIDO-RS: search for a study's series",
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/instances',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: "QIDO-RS: search for a study's instances",
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: "QIDO-RS: search for a series' instances",
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: the de-identified instances of a study (multipart/related; type="application/dicom")',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/metadata',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: the metadata of a study (application/dicom+json, without bulk data)',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: the de-identified instances of a series',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/metadata',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: the metadata of a series',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances/{instance}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: one de-identified instance',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances/{instance}/metadata',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: the metadata of one instance',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frames}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: frames of one instance (multipart/related, one part per frame, in the stored transfer syntax)',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances/{instance}/bulkdata/{tag}',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: "WADO-RS: the bulk data a metadata BulkDataURI names (an attribute's value)",
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/instances/{instance}/rendered',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: 'WADO-RS: one instance rendered as image/jpeg or image/png',
  },
  {
    method: 'GET',
    path: '/dicomweb/studies/{study}/series/{series}/rendered',
    domain: 'dicomweb',
    auth: 'client',
    scopes: READ_SCOPE,
    summary: "WADO-RS: a series' instances rendered (multipart/related of image/jpeg or image/png)",
  },
  {
    method: 'GET',
    path: '/api/hospital-admin/scim-tokens',
    domain: 'scim',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's SCIM provisioning tokens (names and dates; a token itself is shown once, at creation)",
  },
  {
    method: 'POST',
    path: '/api/hospital-admin/scim-tokens',
    domain: 'scim',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Create a SCIM bearer token for an identity provider; shown once, stored as its SHA-256 (audited)',
  },
  {
    method: 'DELETE',
    path: '/api/hospital-admin/scim-tokens/{tokenId}',
    domain: 'scim',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: 'Revoke a SCIM token: refused from the next request on (audited)',
  },
  {
    method: 'GET',
    path: '/scim/v2/ServiceProviderConfig',
    domain: 'scim',
    auth: 'scim',
    summary: 'SCIM 2.0 service provider configuration (RFC 7643 5)',
  },
  {
    method: 'GET',
    path: '/scim/v2/ResourceTypes',
    domain: 'scim',
    auth: 'scim',
    summary: 'SCIM 2.0 resource types: User and Group (RFC 7643 6)',
  },
  {
    method: 'GET',
    path: '/scim/v2/Schemas',
    domain: 'scim',
    auth: 'scim',
    summary: 'SCIM 2.0 schemas of the User and Group resources (RFC 7643 7)',
  },
  {
    method: 'GET',
    path: '/scim/v2/Users',
    domain: 'scim',
    auth: 'scim',
    summary: "The token's hospital's users, a page at a time, or those of a `userName eq` filter (RFC 7644 3.4.2)",
  },
  {
    method: 'POST',
    path: '/scim/v2/Users',
    domain: 'scim',
    auth: 'scim',
    summary: 'Provision a user in the hospital before their first single sign-on (audited)',
  },
  {
    method: 'GET',
    path: '/scim/v2/Users/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: 'One user of the hospital as a SCIM User',
  },
  {
    method: 'PUT',
    path: '/scim/v2/Users/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: "Replace a user's name, e-mail and active state (audited; inactive disables and signs out)",
  },
  {
    method: 'PATCH',
    path: '/scim/v2/Users/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: 'Patch a user (RFC 7644 3.5.2) as Entra ID and Okta send it (audited; active false disables)',
  },
  {
    method: 'DELETE',
    path: '/scim/v2/Users/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: 'Deprovision a user: disabled and signed out everywhere, the record kept (audited)',
  },
  {
    method: 'GET',
    path: '/scim/v2/Groups',
    domain: 'scim',
    auth: 'scim',
    summary: "The hospital's role groups: one SCIM Group per mapped group name",
  },
  {
    method: 'GET',
    path: '/scim/v2/Groups/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: 'One role group of the hospital',
  },
  {
    method: 'PATCH',
    path: '/scim/v2/Groups/{id}',
    domain: 'scim',
    auth: 'scim',
    summary: "Add or remove a group's members: their role follows the group's mapped role (audited)",
  },
] as const satisfies readonly RouteDefinition[];

export type Route = (typeof ROUTES)[number];
/** "<METHOD> <path>" of each route (distributed per route, not the cross product of methods and paths). */
export type RouteKey = Route extends infer R ? (R extends Route ? `${R['method']} ${R['path']}` : never) : never;
/**
 * "<METHOD> <path>" of the routes of one API domain: exactly the keys of that domain Lambda's dispatch map
 * (functions/lib/dispatch.ts), so a route missing from the map, or one the table does not have, fails to compile.
 */
export type DomainRouteKey<D extends ApiDomain> =
  Extract<Route, { domain: D }> extends infer R ? (R extends Route ? `${R['method']} ${R['path']}` : never) : never;

export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/**
 * The methods the table has for a concrete path, whatever the method asked: what a front door names in the Allow
 * header of its 405 (RFC 9110 15.5.6) when the path is known but the method is not. Empty for an unknown path (404).
 */
export function allowedMethods(path: string): HttpMethod[] {
  const order: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return order.filter((method) => matchRoute(method, path) !== undefined);
}

/** Matches a concrete request path against the table; returns the route and its path parameters. */
export function matchRoute(
  method: string,
  path: string,
): { route: RouteDefinition; pathParameters: Record<string, string> } | undefined {
  const segments = path.replace(/\/+$/, '').split('/');
  for (const route of ROUTES as readonly RouteDefinition[]) {
    if (route.method !== method) continue;
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const pathParameters: Record<string, string> = {};
    const matches = template.every((part, i) => {
      const actual = segments[i] ?? '';
      const param = /^\{(\w+)\}$/.exec(part);
      if (param) {
        if (!actual) return false;
        pathParameters[param[1]!] = decodeURIComponent(actual);
        return true;
      }
      return part === actual;
    });
    if (matches) return { route, pathParameters };
  }
  return undefined;
}
