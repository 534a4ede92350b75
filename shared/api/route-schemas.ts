import { z } from 'zod';
import { LogoutResponseSchema, MeResponseSchema } from '#shared/schemas/api/auth.ts';
import { ApiErrorSchema, IdSchema } from '#shared/schemas/api/common.ts';
import {
  ClassifySeriesRequestSchema,
  CreateDatasetRequestSchema,
  DatasetDetailSchema,
  DatasetPageSchema,
  DatasetSchema,
  ListDatasetsQuerySchema,
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
  CompleteFileRequestSchema,
  CreateUploadSessionRequestSchema,
  PartUrlsRequestSchema,
  PartUrlsResponseSchema,
  UploadSessionSchema,
} from '#shared/schemas/api/uploads.ts';
import type { RouteKey } from './routes.ts';

/** Schemas of each route: the handlers parse with them and the OpenAPI document is generated from them. */
export type RouteSchemas = {
  path?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Success status when it is not 200. */
  status?: number;
};

export const HealthResponseSchema = z.object({ status: z.literal('ok') });
export const AuditEventSchema = z.object({
  id: z.string(),
  datasetId: z.string().optional(),
  at: z.string(),
  action: z.string(),
  actorUserId: z.string(),
  actorName: z.string(),
  details: z.record(z.string(), z.unknown()),
});

const DatasetPath = z.object({ id: IdSchema });
const SeriesPath = z.object({ id: IdSchema, seriesId: IdSchema });
const SessionPath = z.object({ sessionId: IdSchema });
const FilePath = z.object({ sessionId: IdSchema, fileIndex: z.coerce.number().int().nonnegative() });

export const ROUTE_SCHEMAS = {
  'GET /api/health': { response: HealthResponseSchema },
  'GET /api/openapi.json': { response: z.record(z.string(), z.unknown()) },
  'GET /api/me': { response: MeResponseSchema },
  'POST /api/auth/logout': { response: LogoutResponseSchema },
  'GET /api/datasets': { query: ListDatasetsQuerySchema, response: DatasetPageSchema },
  'POST /api/datasets': { body: CreateDatasetRequestSchema, response: DatasetSchema, status: 201 },
  'GET /api/datasets/{id}': { path: DatasetPath, response: DatasetDetailSchema },
  'PATCH /api/datasets/{id}': { path: DatasetPath, body: UpdateDatasetRequestSchema, response: DatasetSchema },
  'DELETE /api/datasets/{id}': { path: DatasetPath, response: z.null(), status: 204 },
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
  'POST /api/uploads/{sessionId}/files/{fileIndex}/parts': {
    path: FilePath,
    body: PartUrlsRequestSchema,
    response: PartUrlsResponseSchema,
  },
  'POST /api/uploads/{sessionId}/files/{fileIndex}/complete': {
    path: FilePath,
    body: CompleteFileRequestSchema,
    response: z.object({ fileIndex: z.number().int(), status: z.literal('COMPLETE') }),
  },
  'POST /api/uploads/{sessionId}/complete': { path: SessionPath, response: DatasetSchema },
  'GET /api/hospital-admin/deidentification-policy': { response: DeidentificationPolicyResponseSchema },
  'PUT /api/hospital-admin/deidentification-policy': {
    body: DeidentificationPolicySchema,
    response: DeidentificationPolicyResponseSchema,
  },
} as const satisfies Record<RouteKey, RouteSchemas>;

export { ApiErrorSchema };
