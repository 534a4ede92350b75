import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#shared/definitions/api/openapi.ts';
import { ROUTE_SCHEMAS } from '#shared/definitions/api/route-schemas.ts';
import { ROUTES, routeKey } from '#shared/definitions/api/routes.ts';

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument('https://api.example');

  it('is a valid OpenAPI 3.1 document', async () => {
    // Prepare: the validator dereferences in place, so it gets a copy.
    const copy = structuredClone(document);
    // Act
    const api = await SwaggerParser.validate(copy as never);
    // Assess
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('describes every route of the table with its schemas and role gate', () => {
    const paths = document.paths as Record<
      string,
      Record<
        string,
        {
          requestBody?: unknown;
          security: unknown[];
          'x-roles'?: string[];
          responses: Record<string, unknown>;
          parameters: { name: string; in: string }[];
        }
      >
    >;
    for (const route of ROUTES) {
      const operation = paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, routeKey(route)).toBeDefined();
      const schemas = ROUTE_SCHEMAS[routeKey(route) as keyof typeof ROUTE_SCHEMAS] as {
        body?: unknown;
        requestContentType?: string;
        status?: number;
      };
      expect(Boolean(operation!.requestBody), routeKey(route)).toBe(
        Boolean(schemas.body ?? schemas.requestContentType),
      );
      // DICOMweb routes (docs/dicom-intake.md) name the scopes their access token must carry.
      const scopes = 'scopes' in route ? [...route.scopes] : [];
      // SCIM routes (docs/sso.md#provisioning-scim) take a hospital's SCIM token, not a Cognito one.
      const security =
        route.auth === 'public' ? [] : route.auth === 'scim' ? [{ scimToken: [] }] : [{ cognito: scopes }];
      expect(operation!.security).toEqual(security);
      expect(operation!['x-roles']).toEqual('roles' in route ? route.roles : undefined);
      expect(Object.keys(operation!.responses)).toContain(String(schemas.status ?? 200));
      for (const name of [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(
          operation!.parameters.some((p) => p.name === name && p.in === 'path'),
          `${routeKey(route)} ${name}`,
        ).toBe(true);
      }
    }
  });

  it('documents the list query with the allowed page sizes and the create body with its required fields', () => {
    const list = (document.paths as any)['/api/datasets'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'search', 'limit', 'nextToken']),
    );
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema.enum).toEqual([6, 12, 24, 48]);
    expect(limit.required).toBe(false);
    expect(list.parameters.find((p: { name: string }) => p.name === 'nextToken').schema['x-opaque']).toBe(true);
    const create = (document.paths as any)['/api/datasets'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['mrn', 'studyType', 'patientConsent', 'hipaaDisclosure']));
  });

  it('carries the rules the route schemas check (docs/api-contract.md)', () => {
    const paths = document.paths as any;
    const body = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema;
    // Prepare: the patient share form.
    const share = body('/api/datasets/{id}/patient-shares', 'post');
    // Assess: max opens is -1 or 1..1000, and an e-mail or a phone is required.
    expect(share.properties.maxOpens.anyOf).toEqual([
      { type: 'number', const: -1 },
      { type: 'integer', minimum: 1, maximum: 1000 },
    ]);
    expect(share.anyOf).toEqual([{ required: ['recipientEmail'] }, { required: ['recipientPhone'] }]);
    // A trimmed required text needs a non-blank character.
    expect(body('/api/datasets', 'post').properties.mrn).toMatchObject({ minLength: 1, pattern: '\\S' });
    // The CSV export is documented as CSV, the usage month as a real month.
    expect(Object.keys(paths['/api/audit/export.csv'].get.responses['200'].content)).toEqual(['text/csv']);
    const month = paths['/api/usage'].get.parameters.find((p: { name: string }) => p.name === 'month');
    expect(new RegExp(month.schema.pattern).test('2026-13')).toBe(false);
    expect(new RegExp(month.schema.pattern).test('2026-12')).toBe(true);
  });
});
