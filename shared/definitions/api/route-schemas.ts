import { z } from 'zod';
import { DashboardSchema } from '#shared/schemas/api/dashboard.ts';
import { TeamAnalyticsQuerySchema, TeamAnalyticsSchema } from '#shared/schemas/api/team-analytics.ts';
import { UsageQuerySchema, UsageSchema } from '#shared/schemas/api/usage.ts';
import { LogoutResponseSchema, MeResponseSchema } from '#shared/schemas/api/auth.ts';
import {
  PutSsoRequestSchema,
  ReadSamlMetadataRequestSchema,
  ReadSamlMetadataResultSchema,
  SsoRouteQuerySchema,
  SsoRouteSchema,
  SsoSettingsResponseSchema,
  TestSsoRequestSchema,
  TestSsoResultSchema,
} from '#shared/schemas/api/sso.ts';
import {
  CreatedScimTokenSchema,
  CreateScimTokenSchema,
  ScimIdPathSchema,
  ScimResponseSchema,
  ScimTokenListSchema,
  ScimTokenPathSchema,
  ScimTokenSchema,
} from '#shared/schemas/api/scim.ts';
import {
  AuditExportSchema,
  AuditFilterSchema,
  AuditOutcomeSchema,
  AuditPageSchema,
  ListAuditQuerySchema,
  StartAuditExportRequestSchema,
  VerifyAuditRequestSchema,
  StartAuditVerificationRequestSchema,
  VerifyAuditResponseSchema,
} from '#shared/schemas/api/audit.ts';
import { ApiErrorSchema, IdSchema } from '#shared/schemas/api/common.ts';
import { CreateExportRequestSchema, DatasetExportSchema } from '#shared/schemas/api/exports.ts';
import { JobAcceptedSchema, JobResultPageSchema, JobResultsQuerySchema, JobSchema } from '#shared/schemas/api/jobs.ts';
import { MarkNotificationsReadSchema, NotificationListSchema } from '#shared/schemas/api/notifications.ts';
import {
  CreatedPatientShareSchema,
  CreatePatientShareSchema,
  CreateTeamShareSchema,
  PatientDownloadSchema,
  PatientSessionSchema,
  PatientShareListSchema,
  PatientShareSchema,
  PatientStudyRequestSchema,
  PatientStudySchema,
  RequestShareCodeResultSchema,
  RequestShareCodeSchema,
  ShareAccessLogSchema,
  ShareApprovalListSchema,
  ShareDecisionSchema,
  TeamShareListSchema,
  VerifyShareCodeSchema,
} from '#shared/schemas/api/shares.ts';
import {
  ComplianceQuerySchema,
  ComplianceSchema,
  ReportsQuerySchema,
  ReportsSchema,
} from '#shared/schemas/api/oversight.ts';
import {
  ClassifySeriesRequestSchema,
  CreateDatasetRequestSchema,
  DatasetDetailSchema,
  DatasetPageSchema,
  DatasetSchema,
  DeleteDatasetRequestSchema,
  LegalHoldRequestSchema,
  ListDatasetsQuerySchema,
  ListRecycleBinQuerySchema,
  RecycleBinPageSchema,
  ProcessedAssetSchema,
  SeriesSchema,
  SeriesSelectionRequestSchema,
  UpdateDatasetRequestSchema,
} from '#shared/schemas/api/datasets.ts';
import {
  DeidentificationPolicyResponseSchema,
  DeidentificationPolicySchema,
} from '#shared/schemas/api/hospital-admin.ts';
import {
  ChangeMemberPermissionsRequestSchema,
  ChangeMemberRoleRequestSchema,
  ChangeUserRoleRequestSchema,
  CreateHospitalRequestSchema,
  DeleteHospitalRequestSchema,
  DepartmentInputSchema,
  DepartmentSchema,
  HospitalAdminOverviewSchema,
  HospitalPageSchema,
  HospitalSchema,
  HospitalWithJobSchema,
  ListHospitalsQuerySchema,
  ListDepartmentsQuerySchema,
  ListTeamsQuerySchema,
  ListUsersQuerySchema,
  MoveUserRequestSchema,
  TeamDetailSchema,
  TeamInputSchema,
  TeamMemberPageSchema,
  TeamMemberSchema,
  TeamPageSchema,
  TeamSchema,
  UpdateHospitalRequestSchema,
  UpdateTeamRequestSchema,
  UserPageSchema,
  UserSchema,
  UserScopeQuerySchema,
} from '#shared/schemas/api/organisation.ts';
import {
  AcceptInvitationResultSchema,
  AcceptInvitationSchema,
  BulkInvitationRequestSchema,
  DeclineInvitationResultSchema,
  DeclineInvitationSchema,
  InvitationListQuerySchema,
  InvitationListSchema,
  InvitationPreviewQuerySchema,
  InvitationPreviewSchema,
  InvitationSchema,
  SingleInvitationSchema,
  TeamInvitationSchema,
} from '#shared/schemas/api/invitations.ts';
import {
  CreateUploadSessionRequestSchema,
  PartUrlsRequestSchema,
  PartUrlsResponseSchema,
  UploadSessionSchema,
} from '#shared/schemas/api/uploads.ts';
import {
  AvatarUploadRequestSchema,
  AvatarUploadResponseSchema,
  HospitalSettingsSchema,
  NotificationPreferencesSchema,
  PutHospitalSettingsRequestSchema,
  PutSystemPolicyRequestSchema,
  PutTeamPolicyRequestSchema,
  SystemPolicyResponseSchema,
  TeamPolicyResponseSchema,
  UpdateUserProfileRequestSchema,
  UserProfileResponseSchema,
} from '#shared/schemas/api/policies.ts';
import {
  CreateDicomNodeRequestSchema,
  CreateDicomWebClientRequestSchema,
  CreatedDicomWebClientSchema,
  IntegrationListSchema,
  IntegrationPathSchema,
  IntegrationSchema,
} from '#shared/schemas/api/integrations.ts';
import { DicomUidSchema, pageTokenSchema, queryNumber } from '#shared/schemas/api/common.ts';
import {
  RedactSeriesRequestSchema,
  SeriesPreviewQuerySchema,
  SeriesPreviewSchema,
} from '#shared/schemas/api/redaction.ts';
import type { RouteKey } from './routes.ts';

/** Schemas of each route: the handlers parse with them and the OpenAPI document is generated from them. */
export type RouteSchemas = {
  path?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Success status when it is not 200. */
  status?: number;
  /** Media type of a body that is not JSON (DICOMweb: multipart/related of application/dicom). */
  requestContentType?: string;
  /** Media type of a success answer that is not application/json. */
  responseContentType?: string;
};

export const HealthResponseSchema = z.object({ status: z.literal('ok') });
/** An event of a dataset's history: the audit event as stored, without its hospital (shared/domain/ports.ts). */
export const AuditEventSchema = z.object({
  id: z.string(),
  datasetId: z.string().optional(),
  targetUserId: z.string().optional(),
  at: z.string(),
  action: z.string(),
  outcome: AuditOutcomeSchema.optional(),
  actorUserId: z.string(),
  actorName: z.string(),
  details: z.record(z.string(), z.unknown()),
  seq: z.number().int().optional(),
  prevHash: z.string().optional(),
  hash: z.string().optional(),
});

const DatasetPath = z.object({ id: IdSchema });
/** DICOMweb (PS3.18): bodies and answers are DICOM media types; the answer's JSON is the DICOM JSON model. */
const DICOM_JSON = 'application/dicom+json';
const DICOM_MULTIPART = 'multipart/related; type="application/dicom"';
const DicomJsonSchema = z.record(z.string(), z.object({ vr: z.string(), Value: z.array(z.unknown()).optional() }));
const StudyPath = z.object({ study: DicomUidSchema });
const SeriesUidPath = z.object({ study: DicomUidSchema, series: DicomUidSchema });
const InstancePath = z.object({ study: DicomUidSchema, series: DicomUidSchema, instance: DicomUidSchema });
const STOW = { requestContentType: DICOM_MULTIPART, response: DicomJsonSchema, responseContentType: DICOM_JSON };
const QIDO = { response: z.array(DicomJsonSchema), responseContentType: DICOM_JSON };
const WADO = { response: z.unknown(), responseContentType: DICOM_MULTIPART };
const METADATA = { response: z.array(DicomJsonSchema), responseContentType: DICOM_JSON };
/** PS3.18 8.3.4.1 (frame list: 1-based numbers, comma-separated) and F.2.6 (a bulk data attribute's tag). */
const FramesPath = InstancePath.extend({ frames: z.string().regex(/^[1-9]\d{0,5}(,[1-9]\d{0,5}){0,99}$/) });
const BulkDataPath = InstancePath.extend({ tag: z.string().regex(/^[0-9A-Fa-f]{8}$/) });
const FRAMES = { response: z.unknown(), responseContentType: 'multipart/related; type="application/octet-stream"' };
const RENDERED = { response: z.unknown(), responseContentType: 'image/jpeg' };
const SeriesPath = z.object({ id: IdSchema, seriesId: IdSchema });
const SessionPath = z.object({ sessionId: IdSchema });
const HospitalPath = z.object({ hospitalId: IdSchema });
const JobPath = z.object({ jobId: IdSchema });
const ExportPath = z.object({ id: IdSchema, exportId: IdSchema });
const AuditExportPath = z.object({ exportId: IdSchema });
const DepartmentPath = z.object({ departmentId: IdSchema });
const TeamPath = z.object({ teamId: IdSchema });
const MemberPath = z.object({ teamId: IdSchema, memberId: IdSchema });
const UserPath = z.object({ userId: IdSchema });
const InvitationPath = z.object({ invitationId: IdSchema });
const TeamInvitationPath = z.object({ teamId: IdSchema, invitationId: IdSchema });
const ShareIdPath = z.object({ id: IdSchema, shareId: IdSchema });
const ApprovalPath = z.object({ shareId: IdSchema });

/** SCIM answers and bodies are application/scim+json (RFC 7644 3.1), read and written by the scimmy library. */
const SCIM = { response: ScimResponseSchema, responseContentType: 'application/scim+json' } as const;
const SCIM_BODY = { ...SCIM, body: ScimResponseSchema, requestContentType: 'application/scim+json' } as const;

export const ROUTE_SCHEMAS = {
  'GET /api/audit': { query: ListAuditQuerySchema, response: AuditPageSchema },
  'GET /api/audit/export.csv': { query: AuditFilterSchema, response: z.string(), responseContentType: 'text/csv' },
  'POST /api/audit/exports': { body: StartAuditExportRequestSchema, response: JobAcceptedSchema, status: 202 },
  'GET /api/audit/exports/{exportId}': { path: AuditExportPath, response: AuditExportSchema },
  'POST /api/audit/verify': { body: VerifyAuditRequestSchema, response: VerifyAuditResponseSchema },
  'POST /api/audit/verifications': {
    body: StartAuditVerificationRequestSchema,
    response: JobAcceptedSchema,
    status: 202,
  },
  'GET /api/compliance': { query: ComplianceQuerySchema, response: ComplianceSchema },
  'GET /api/reports': { query: ReportsQuerySchema, response: ReportsSchema },
  'GET /api/dashboard': { response: DashboardSchema },
  'GET /api/usage': { query: UsageQuerySchema, response: UsageSchema },
  'GET /api/notifications': { response: NotificationListSchema },
  'POST /api/notifications/read': {
    body: MarkNotificationsReadSchema,
    response: z.object({ unreadCount: z.number().int().nonnegative() }),
  },
  'GET /api/health': { response: HealthResponseSchema },
  'GET /api/openapi.json': { response: z.record(z.string(), z.unknown()) },
  'GET /api/me': { response: MeResponseSchema },
  'POST /api/auth/logout': { response: LogoutResponseSchema },
  'GET /api/datasets': { query: ListDatasetsQuerySchema, response: DatasetPageSchema },
  'POST /api/datasets': { body: CreateDatasetRequestSchema, response: DatasetSchema, status: 201 },
  'GET /api/datasets/{id}': { path: DatasetPath, response: DatasetDetailSchema },
  'PATCH /api/datasets/{id}': { path: DatasetPath, body: UpdateDatasetRequestSchema, response: DatasetSchema },
  'GET /api/datasets/recycle-bin': { query: ListRecycleBinQuerySchema, response: RecycleBinPageSchema },
  'DELETE /api/datasets/{id}': { path: DatasetPath, body: DeleteDatasetRequestSchema, response: z.null(), status: 204 },
  'POST /api/datasets/{id}/restore': { path: DatasetPath, response: DatasetSchema },
  'POST /api/datasets/{id}/exports': {
    path: DatasetPath,
    body: CreateExportRequestSchema,
    response: JobAcceptedSchema,
    status: 202,
  },
  'GET /api/datasets/{id}/exports/{exportId}': { path: ExportPath, response: DatasetExportSchema },
  'PUT /api/datasets/{id}/legal-hold': { path: DatasetPath, body: LegalHoldRequestSchema, response: DatasetSchema },
  'GET /api/datasets/{id}/series': { path: DatasetPath, response: z.object({ items: z.array(SeriesSchema) }) },
  'PATCH /api/datasets/{id}/series/selection': {
    path: DatasetPath,
    body: SeriesSelectionRequestSchema,
    response: z.object({ items: z.array(SeriesSchema) }),
  },
  'POST /api/datasets/{id}/series/{seriesId}/classify': {
    path: SeriesPath,
    body: ClassifySeriesRequestSchema,
    response: SeriesSchema,
  },
  'POST /api/datasets/{id}/series/{seriesId}/release': { path: SeriesPath, response: SeriesSchema },
  'GET /api/datasets/{id}/series/{seriesId}/preview': {
    path: SeriesPath,
    query: SeriesPreviewQuerySchema,
    response: SeriesPreviewSchema,
  },
  'POST /api/datasets/{id}/series/{seriesId}/redact': {
    path: SeriesPath,
    body: RedactSeriesRequestSchema,
    response: SeriesSchema,
  },
  'GET /api/datasets/{id}/assets': { path: DatasetPath, response: z.object({ items: z.array(ProcessedAssetSchema) }) },
  'GET /api/datasets/{id}/history': { path: DatasetPath, response: z.object({ items: z.array(AuditEventSchema) }) },
  'POST /api/datasets/{id}/retry': { path: DatasetPath, response: DatasetSchema },
  'POST /api/datasets/{id}/upload/session': {
    path: DatasetPath,
    body: CreateUploadSessionRequestSchema,
    response: UploadSessionSchema,
    status: 201,
  },
  'GET /api/uploads/{sessionId}': { path: SessionPath, response: UploadSessionSchema },
  'POST /api/uploads/{sessionId}/parts': {
    path: SessionPath,
    body: PartUrlsRequestSchema,
    response: PartUrlsResponseSchema,
  },
  'POST /api/uploads/{sessionId}/complete': { path: SessionPath, response: DatasetSchema },
  'GET /api/hospital-admin/deidentification-policy': { response: DeidentificationPolicyResponseSchema },
  'PUT /api/hospital-admin/deidentification-policy': {
    body: DeidentificationPolicySchema,
    response: DeidentificationPolicyResponseSchema,
  },

  'GET /api/hospitals': { query: ListHospitalsQuerySchema, response: HospitalPageSchema },
  'POST /api/hospitals': { body: CreateHospitalRequestSchema, response: HospitalSchema, status: 201 },
  'GET /api/hospitals/{hospitalId}': { path: HospitalPath, response: HospitalSchema },
  'PATCH /api/hospitals/{hospitalId}': {
    path: HospitalPath,
    body: UpdateHospitalRequestSchema,
    response: HospitalSchema,
  },
  'DELETE /api/hospitals/{hospitalId}': {
    path: HospitalPath,
    body: DeleteHospitalRequestSchema,
    response: HospitalWithJobSchema,
    status: 202,
  },
  'POST /api/hospitals/{hospitalId}/restore': { path: HospitalPath, response: HospitalWithJobSchema, status: 202 },
  'GET /api/jobs/{jobId}': { path: JobPath, response: JobSchema },
  'GET /api/jobs/{jobId}/results': { path: JobPath, query: JobResultsQuerySchema, response: JobResultPageSchema },
  'GET /api/hospital-admin/overview': { response: HospitalAdminOverviewSchema },

  'GET /api/departments': {
    query: ListDepartmentsQuerySchema,
    response: z.object({ items: z.array(DepartmentSchema) }),
  },
  'POST /api/departments': { body: DepartmentInputSchema, response: DepartmentSchema, status: 201 },
  'PATCH /api/departments/{departmentId}': {
    path: DepartmentPath,
    body: DepartmentInputSchema.partial(),
    response: DepartmentSchema,
  },
  'DELETE /api/departments/{departmentId}': { path: DepartmentPath, response: z.null(), status: 204 },

  'GET /api/teams': { query: ListTeamsQuerySchema, response: TeamPageSchema },
  'POST /api/teams': { body: TeamInputSchema, response: TeamSchema, status: 201 },
  'GET /api/teams/{teamId}': { path: TeamPath, response: TeamDetailSchema },
  'PATCH /api/teams/{teamId}': { path: TeamPath, body: UpdateTeamRequestSchema, response: TeamSchema },
  'POST /api/teams/{teamId}/archive': { path: TeamPath, response: TeamSchema },
  'POST /api/teams/{teamId}/restore': { path: TeamPath, response: TeamSchema },
  'GET /api/teams/{teamId}/analytics': {
    path: TeamPath,
    query: TeamAnalyticsQuerySchema,
    response: TeamAnalyticsSchema,
  },
  'GET /api/teams/{teamId}/members': {
    path: TeamPath,
    query: z.object({
      limit: queryNumber(z.number().int().min(1).max(100).default(50)),
      nextToken: pageTokenSchema(2048).optional(),
    }),
    response: TeamMemberPageSchema,
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/role': {
    path: MemberPath,
    body: ChangeMemberRoleRequestSchema,
    response: TeamMemberSchema,
  },
  'PATCH /api/teams/{teamId}/members/{memberId}/permissions': {
    path: MemberPath,
    body: ChangeMemberPermissionsRequestSchema,
    response: TeamMemberSchema,
  },
  'DELETE /api/teams/{teamId}/members/{memberId}': { path: MemberPath, response: z.null(), status: 204 },

  'GET /api/users': { query: ListUsersQuerySchema, response: UserPageSchema },
  'GET /api/users/{userId}': { path: UserPath, query: UserScopeQuerySchema, response: UserSchema },
  'PATCH /api/users/{userId}/role': {
    path: UserPath,
    query: UserScopeQuerySchema,
    body: ChangeUserRoleRequestSchema,
    response: UserSchema,
  },
  'PATCH /api/users/{userId}/team': {
    path: UserPath,
    query: UserScopeQuerySchema,
    body: MoveUserRequestSchema,
    response: UserSchema,
  },
  'POST /api/users/{userId}/disable': { path: UserPath, query: UserScopeQuerySchema, response: UserSchema },
  'POST /api/users/{userId}/enable': { path: UserPath, query: UserScopeQuerySchema, response: UserSchema },
  'POST /api/users/{userId}/reset-mfa': { path: UserPath, query: UserScopeQuerySchema, response: UserSchema },

  'GET /api/me/profile': { response: UserProfileResponseSchema },
  'PUT /api/me/profile': { body: UpdateUserProfileRequestSchema, response: UserProfileResponseSchema },
  'POST /api/me/avatar': { body: AvatarUploadRequestSchema, response: AvatarUploadResponseSchema },
  'GET /api/me/notification-preferences': { response: NotificationPreferencesSchema },
  'PUT /api/me/notification-preferences': {
    body: NotificationPreferencesSchema,
    response: NotificationPreferencesSchema,
  },
  'GET /api/system/policy': { response: SystemPolicyResponseSchema },
  'PUT /api/system/policy': { body: PutSystemPolicyRequestSchema, response: SystemPolicyResponseSchema },
  'GET /api/hospital-admin/settings': { response: HospitalSettingsSchema },
  'PUT /api/hospital-admin/settings': { body: PutHospitalSettingsRequestSchema, response: HospitalSettingsSchema },
  'GET /api/hospital-admin/sso': { response: SsoSettingsResponseSchema },
  'PUT /api/hospital-admin/sso': { body: PutSsoRequestSchema, response: SsoSettingsResponseSchema },
  'DELETE /api/hospital-admin/sso': { response: SsoSettingsResponseSchema },
  'POST /api/hospital-admin/sso/test': { body: TestSsoRequestSchema, response: TestSsoResultSchema },
  'POST /api/hospital-admin/sso/saml-metadata': {
    body: ReadSamlMetadataRequestSchema,
    response: ReadSamlMetadataResultSchema,
  },
  'GET /api/auth/sso-route': { query: SsoRouteQuerySchema, response: SsoRouteSchema },
  'GET /api/teams/{teamId}/policy': { path: TeamPath, response: TeamPolicyResponseSchema },
  'PUT /api/teams/{teamId}/policy': {
    path: TeamPath,
    body: PutTeamPolicyRequestSchema,
    response: TeamPolicyResponseSchema,
  },
  'GET /api/invitations': { query: InvitationListQuerySchema, response: InvitationListSchema },
  'POST /api/invitations': { body: SingleInvitationSchema, response: InvitationSchema, status: 201 },
  'POST /api/invitations/bulk': {
    body: BulkInvitationRequestSchema,
    response: JobAcceptedSchema,
    status: 202,
  },
  'POST /api/invitations/{invitationId}/resend': { path: InvitationPath, response: InvitationSchema },
  'DELETE /api/invitations/{invitationId}': { path: InvitationPath, response: InvitationSchema },
  'GET /api/teams/{teamId}/invitations': {
    path: TeamPath,
    query: InvitationListQuerySchema,
    response: InvitationListSchema,
  },
  'POST /api/teams/{teamId}/invitations': {
    path: TeamPath,
    body: TeamInvitationSchema,
    response: InvitationSchema,
    status: 201,
  },
  'POST /api/teams/{teamId}/invitations/{invitationId}/resend': {
    path: TeamInvitationPath,
    response: InvitationSchema,
  },
  'DELETE /api/teams/{teamId}/invitations/{invitationId}': { path: TeamInvitationPath, response: InvitationSchema },
  'GET /api/invitations/preview': { query: InvitationPreviewQuerySchema, response: InvitationPreviewSchema },
  'POST /api/invitations/accept': { body: AcceptInvitationSchema, response: AcceptInvitationResultSchema },
  'POST /api/invitations/decline': { body: DeclineInvitationSchema, response: DeclineInvitationResultSchema },
  'GET /api/datasets/{id}/team-shares': {
    path: DatasetPath,
    response: TeamShareListSchema.extend({ teams: z.array(z.object({ id: z.string(), name: z.string() })) }),
  },
  'POST /api/datasets/{id}/team-shares': {
    path: DatasetPath,
    body: CreateTeamShareSchema,
    response: TeamShareListSchema,
    status: 201,
  },
  'DELETE /api/datasets/{id}/team-shares/{shareId}': {
    path: ShareIdPath,
    response: z.object({ revoked: z.literal(true) }),
  },
  'GET /api/teams/{teamId}/dicom-shares': { path: TeamPath, response: TeamShareListSchema },
  'GET /api/shares/received': { response: z.object({ items: z.array(DatasetSchema) }) },
  'GET /api/shares/approvals': { response: ShareApprovalListSchema },
  'POST /api/shares/approvals/{shareId}/approve': { path: ApprovalPath, response: ShareDecisionSchema },
  'POST /api/shares/approvals/{shareId}/refuse': { path: ApprovalPath, response: ShareDecisionSchema },
  'GET /api/datasets/{id}/patient-shares': { path: DatasetPath, response: PatientShareListSchema },
  'POST /api/datasets/{id}/patient-shares': {
    path: DatasetPath,
    body: CreatePatientShareSchema,
    response: CreatedPatientShareSchema,
    status: 201,
  },
  'DELETE /api/datasets/{id}/patient-shares/{shareId}': {
    path: ShareIdPath,
    response: z.object({ share: PatientShareSchema }),
  },
  'GET /api/datasets/{id}/patient-shares/{shareId}/access-log': { path: ShareIdPath, response: ShareAccessLogSchema },
  'POST /api/patient-access/code': { body: RequestShareCodeSchema, response: RequestShareCodeResultSchema },
  'POST /api/patient-access/verify': { body: VerifyShareCodeSchema, response: PatientSessionSchema },
  'POST /api/patient-access/study': { body: PatientStudyRequestSchema, response: PatientStudySchema },
  'POST /api/patient-access/download': { body: PatientDownloadSchema, response: z.object({ url: z.string() }) },
  'GET /api/integrations': { response: IntegrationListSchema },
  'POST /api/integrations/dicomweb-clients': {
    body: CreateDicomWebClientRequestSchema,
    response: CreatedDicomWebClientSchema,
    status: 201,
  },
  'POST /api/integrations/dicom-nodes': {
    body: CreateDicomNodeRequestSchema,
    response: IntegrationSchema,
    status: 201,
  },
  'DELETE /api/integrations/{integrationId}': { path: IntegrationPathSchema, response: IntegrationSchema },
  'POST /api/integrations/dicomweb-index': { response: JobAcceptedSchema, status: 202 },
  'POST /api/reports/recount': { response: JobAcceptedSchema, status: 202 },
  'POST /dicomweb/studies': STOW,
  'POST /dicomweb/studies/{study}': { path: StudyPath, ...STOW },
  'POST /dicomweb/studies/{study}/commit': {
    path: StudyPath,
    response: z.object({ datasetId: IdSchema }),
  },
  'GET /dicomweb/studies': QIDO,
  'GET /dicomweb/series': QIDO,
  'GET /dicomweb/instances': QIDO,
  'GET /dicomweb/studies/{study}/series': { path: StudyPath, ...QIDO },
  'GET /dicomweb/studies/{study}/instances': { path: StudyPath, ...QIDO },
  'GET /dicomweb/studies/{study}/series/{series}/instances': { path: SeriesUidPath, ...QIDO },
  'GET /dicomweb/studies/{study}': { path: StudyPath, ...WADO },
  'GET /dicomweb/studies/{study}/metadata': { path: StudyPath, ...METADATA },
  'GET /dicomweb/studies/{study}/series/{series}': { path: SeriesUidPath, ...WADO },
  'GET /dicomweb/studies/{study}/series/{series}/metadata': { path: SeriesUidPath, ...METADATA },
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}': { path: InstancePath, ...WADO },
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/metadata': { path: InstancePath, ...METADATA },
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/frames/{frames}': { path: FramesPath, ...FRAMES },
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/bulkdata/{tag}': {
    path: BulkDataPath,
    ...FRAMES,
  },
  'GET /dicomweb/studies/{study}/series/{series}/instances/{instance}/rendered': { path: InstancePath, ...RENDERED },
  'GET /dicomweb/studies/{study}/series/{series}/rendered': {
    path: SeriesUidPath,
    response: z.unknown(),
    responseContentType: 'multipart/related; type="image/jpeg"',
  },
  'GET /api/hospital-admin/scim-tokens': { response: ScimTokenListSchema },
  'POST /api/hospital-admin/scim-tokens': {
    body: CreateScimTokenSchema,
    response: CreatedScimTokenSchema,
    status: 201,
  },
  'DELETE /api/hospital-admin/scim-tokens/{tokenId}': { path: ScimTokenPathSchema, response: ScimTokenSchema },
  'GET /scim/v2/ServiceProviderConfig': SCIM,
  'GET /scim/v2/ResourceTypes': SCIM,
  'GET /scim/v2/Schemas': SCIM,
  'GET /scim/v2/Users': SCIM,
  'POST /scim/v2/Users': { ...SCIM_BODY, status: 201 },
  'GET /scim/v2/Users/{id}': { path: ScimIdPathSchema, ...SCIM },
  'PUT /scim/v2/Users/{id}': { path: ScimIdPathSchema, ...SCIM_BODY },
  'PATCH /scim/v2/Users/{id}': { path: ScimIdPathSchema, ...SCIM_BODY },
  'DELETE /scim/v2/Users/{id}': { path: ScimIdPathSchema, response: z.null(), status: 204 },
  'GET /scim/v2/Groups': SCIM,
  'GET /scim/v2/Groups/{id}': { path: ScimIdPathSchema, ...SCIM },
  'PATCH /scim/v2/Groups/{id}': { path: ScimIdPathSchema, ...SCIM_BODY },
} as const satisfies Record<RouteKey, RouteSchemas>;

export { ApiErrorSchema };
