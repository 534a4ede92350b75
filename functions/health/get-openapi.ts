import { buildOpenApiDocument } from '#shared/definitions/api/openapi.ts';
import { publicHttpHandler } from '#functions/lib/http-handler.ts';

let document: Record<string, unknown> | undefined;

/** GET /api/openapi.json: generated once per container from the route table and the zod schemas. */
export const handler = publicHttpHandler('GET /api/openapi.json', async () => (document ??= buildOpenApiDocument('/')));
