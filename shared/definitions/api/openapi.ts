import { z } from 'zod';
import { ERROR_CATALOGUE } from '#shared/vocabulary/errors.ts';
import { ApiErrorSchema } from '#shared/schemas/api/common.ts';
import { ROUTE_SCHEMAS, type RouteSchemas } from './route-schemas.ts';
import { ROUTES, routeKey, type RouteDefinition } from './routes.ts';

/** True when the string schema trims its input before checking it (zod's `.trim()`, an overwrite check). */
function trims(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as {
    type: string;
    checks?: { _zod: { def: { check: string; tx?: (v: string) => unknown } } }[];
  };
  if (def.type !== 'string') return false;
  return (def.checks ?? []).some((c) => c._zod.def.check === 'overwrite' && c._zod.def.tx?.(' a ') === 'a');
}

/**
 * A trimmed string's `minLength` counts the characters left after trimming, which JSON Schema cannot say: the
 * document adds the pattern that does (at least `minLength` characters from the first non-blank to the last).
 */
function trimmedMinimum(json: Record<string, unknown>): void {
  const min = json.minLength;
  if (typeof min !== 'number' || min < 1) return;
  const pattern = min === 1 ? '\\S' : `\\S[\\s\\S]{${min - 2},}\\S`;
  if (json.pattern === undefined && json.allOf === undefined) json.pattern = pattern;
  else json.allOf = [...((json.allOf as unknown[] | undefined) ?? []), { pattern }];
}

/**
 * JSON Schema of a zod schema as the API reads it (`input`: requests, with defaults optional) or writes it
 * (`output`: answers). Everything the schema checks is in it: limits, enums, patterns, formats, and the rules a
 * schema carries in its `.meta()` (docs/api-contract.md).
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      if (trims(ctx.zodSchema)) trimmedMinimum(ctx.jsonSchema as Record<string, unknown>);
    },
  }) as Record<string, unknown>;
  return rest;
}

function parameters(route: RouteDefinition, schemas: RouteSchemas): Record<string, unknown>[] {
  const params: Record<string, unknown>[] = [];
  for (const [location, schema] of [
    ['path', schemas.path],
    ['query', schemas.query],
  ] as const) {
    if (!schema) continue;
    const shape = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      params.push({
        name,
        in: location,
        required: location === 'path' || (shape.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  const declared = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  for (const name of declared) {
    if (!params.some((p) => p.name === name))
      params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return params;
}

/** OpenAPI 3.1 from the route table and the zod schemas: one source for the API, its docs and its checks. */
export function buildOpenApiDocument(serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorStatuses = [...new Set(Object.values(ERROR_CATALOGUE).map((e) => e.status))].sort();
  for (const route of ROUTES as readonly RouteDefinition[]) {
    const schemas = (ROUTE_SCHEMAS as Record<string, RouteSchemas>)[routeKey(route)]!;
    const status = String(schemas.status ?? 200);
    const responses: Record<string, unknown> = {
      [status]:
        status === '204'
          ? { description: 'No content' }
          : {
              description: 'Success',
              content: {
                [schemas.responseContentType ?? 'application/json']: {
                  schema: jsonSchema(schemas.response, 'output'),
                },
              },
            },
    };
    for (const code of errorStatuses) responses[String(code)] = { $ref: '#/components/responses/Error' };
    const operation: Record<string, unknown> = {
      operationId: `${route.method.toLowerCase()}${route.path
        .replace(/\{(\w+)\}/g, 'By-$1')
        .split(/[/._-]/)
        .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : ''))
        .join('')}`,
      summary: route.summary,
      tags: [route.domain],
      parameters: parameters(route, schemas),
      responses,
      security:
        route.auth === 'public'
          ? []
          : route.auth === 'scim'
            ? [{ scimToken: [] }]
            : [{ cognito: route.auth === 'client' ? [...(route.scopes ?? [])] : [] }],
      ...(route.roles ? { 'x-roles': route.roles } : {}),
    };
    if (schemas.requestContentType)
      operation.requestBody = {
        required: true,
        content: {
          [schemas.requestContentType]: { schema: { type: 'string', contentMediaType: 'application/dicom' } },
        },
      };
    if (schemas.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(schemas.body, 'input') } },
      };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Imaging Workspace API',
      version: '1.0.0',
      description: 'Generated from shared/definitions/api/routes.ts and the zod schemas in shared/schemas.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        cognito: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Cognito ID token' },
        scimToken: { type: 'http', scheme: 'bearer', description: "A hospital's SCIM provisioning token (RFC 7644 2)" },
      },
      responses: {
        Error: {
          description: "Error in the catalogue's words",
          content: { 'application/json': { schema: jsonSchema(ApiErrorSchema, 'output') } },
        },
      },
    },
  };
}
