/**
 * The API's contract as a checker: every answer a test receives is held against the OpenAPI document the API serves
 * (shared/definitions/api/openapi.ts, docs/api-contract.md). An answer is inside the document when its status is one
 * the operation lists, its media type is one that status lists, and its body matches that media type's schema.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '#shared/definitions/api/openapi.ts';

type MediaType = { schema?: Record<string, unknown> };
type ResponseObject = { description: string; content?: Record<string, MediaType>; $ref?: string };
export type Operation = {
  operationId: string;
  parameters: { name: string; in: 'path' | 'query'; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security: unknown[];
  'x-roles'?: string[];
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, ResponseObject> };
};

/** An answer as a client sees it: status, the Content-Type header and the raw body text. */
export type Answer = { status: number; contentType: string | undefined; body: string | undefined };

// ajv-formats is CommonJS with its function as the default export; under ESM interop it may sit one level down.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

const mediaTypeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

export function createContract(document = buildOpenApiDocument('/') as unknown as OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // zod names a string's fixed prefix as the format `starts_with` beside the `pattern` that checks it.
  ajv.addFormat('starts_with', true);
  const validators = new Map<object, ValidateFunction>();
  const validatorOf = (schema: Record<string, unknown>) => {
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(schema, validate);
    }
    return validate;
  };
  const resolve = (response: ResponseObject): ResponseObject =>
    response.$ref ? document.components.responses[response.$ref.split('/').at(-1)!]! : response;

  return {
    document,
    operation(method: string, template: string): Operation | undefined {
      return document.paths[template]?.[method.toLowerCase()];
    },
    /** Why the answer is outside the document (an empty list when it is inside). */
    check(method: string, template: string, answer: Answer): string[] {
      const operation = this.operation(method, template);
      if (!operation) return [`${method} ${template} is not in the document`];
      const where = `${method} ${template} ${answer.status}`;
      const declared = operation.responses[String(answer.status)];
      if (!declared) return [`${where}: status not documented (${Object.keys(operation.responses).join(', ')})`];
      const response = resolve(declared);
      if (!response.content) return answer.body ? [`${where}: documented without a body, answered one`] : [];
      const mediaType = mediaTypeOf(answer.contentType);
      const media = Object.entries(response.content).find(([name]) => mediaTypeOf(name) === mediaType)?.[1];
      if (!media) return [`${where}: answered ${mediaType || 'no type'}, documented ${Object.keys(response.content)}`];
      if (!media.schema) return [];
      let value: unknown = answer.body ?? '';
      if (isJson(mediaType)) {
        try {
          value = JSON.parse(answer.body ?? '');
        } catch {
          return [`${where}: body is not JSON`];
        }
      }
      const validate = validatorOf(media.schema);
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (e) => `${where}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
    },
  };
}

export type Contract = ReturnType<typeof createContract>;

let shared: Contract | undefined;
/** One checker per test process: compiling the document's schemas once. */
export function contract(): Contract {
  return (shared ??= createContract());
}

/**
 * Throws when the answer is outside the document, so the test that received it fails. DICOMweb (`client`) routes
 * answer in DICOM media types (PS3.18), SCIM (`scim`) routes in SCIM's (RFC 7644, application/scim+json, scimmy's
 * schemas): each protocol is checked by its own tests (docs/api-contract.md).
 */
export function assertInsideContract(method: string, route: { path: string; auth: string }, answer: Answer): void {
  if (route.auth === 'client' || route.auth === 'scim') return;
  const problems = contract().check(method, route.path, answer);
  if (problems.length > 0) throw new Error(`Answer outside the API document:\n${problems.join('\n')}`);
}
