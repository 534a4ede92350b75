import type { Role } from '#shared/auth/roles.ts';

/**
 * The route table: the one list of API routes. The CDK stack builds API Gateway resources and one Lambda
 * per domain from it, the local twin's router matches requests with it, the OpenAPI document is generated
 * from it, and tests/integration/access.test.ts drives every entry as every role and as another hospital.
 *
 * `roles` is the coarse gate applied before the handler runs (the authorizer's groups check); handlers
 * still apply permissions and ownership from the verified user record. Paths use API Gateway templates.
 */
export const API_DOMAINS = [
  'health',
  'auth',
  'hospitals',
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
] as const;
export type ApiDomain = (typeof API_DOMAINS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteDefinition = {
  /** Stable key used by the domain handler to dispatch: "<METHOD> <path>". */
  method: HttpMethod;
  path: `/api/${string}` | '/api';
  domain: ApiDomain;
  /** Public routes skip the authorizer; every other route needs a verified Cognito ID token. */
  auth: 'public' | 'user';
  /** Roles allowed past the gate; undefined = every signed-in role. */
  roles?: readonly Role[];
  summary: string;
};

const STAFF: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD', 'TEAM_MEMBER'];
const UPLOADERS: readonly Role[] = ['TEAM_LEAD', 'TEAM_MEMBER'];
const HOSPITAL_ADMINS: readonly Role[] = ['HOSPITAL_ADMIN'];
const LEADS: readonly Role[] = ['HOSPITAL_ADMIN', 'TEAM_LEAD'];
/** The visualizer is open to every signed-in role of the hospital (docs/roles-and-permissions.md#api-access), so a guest may read one dataset of their team. */
const VIEWERS: readonly Role[] = [...STAFF, 'GUEST'];

export const ROUTES = [
  {
    method: 'GET',
    path: '/api/health',
    domain: 'health',
    auth: 'public',
    summary: 'Liveness of the API and, locally, of every stand-in service',
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
    summary: 'Delete a dataset and its objects in every bucket (DELETE_DATA)',
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
    path: '/api/datasets/{id}/upload/session',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Open (or resume) the upload session of a dataset: one multipart upload per file',
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
    path: '/api/uploads/{sessionId}/files/{fileIndex}/parts',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Presigned URLs for parts of one file',
  },
  {
    method: 'POST',
    path: '/api/uploads/{sessionId}/files/{fileIndex}/complete',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Complete the multipart upload of one file',
  },
  {
    method: 'POST',
    path: '/api/uploads/{sessionId}/complete',
    domain: 'uploads',
    auth: 'user',
    roles: UPLOADERS,
    summary: 'Finish the upload and start the dataset pipeline',
  },

  {
    method: 'GET',
    path: '/api/hospital-admin/deidentification-policy',
    domain: 'hospitals',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "The hospital's de-identification policy: default options and those uploaders may change",
  },
  {
    method: 'PUT',
    path: '/api/hospital-admin/deidentification-policy',
    domain: 'hospitals',
    auth: 'user',
    roles: HOSPITAL_ADMINS,
    summary: "Set the hospital's de-identification policy (audited with before and after)",
  },
] as const satisfies readonly RouteDefinition[];

export type Route = (typeof ROUTES)[number];
/** "<METHOD> <path>" of each route (distributed per route, not the cross product of methods and paths). */
export type RouteKey = Route extends infer R ? (R extends Route ? `${R['method']} ${R['path']}` : never) : never;

export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
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
