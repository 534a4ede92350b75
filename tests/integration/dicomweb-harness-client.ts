import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, expect } from 'vitest';
import { startHarness, type Harness } from './datasets-harness.ts';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { parseMediaType, parseMultipart } from '#shared/domain/intake/multipart.ts';

/**
 * A DICOMweb client of the in-process harness: requests built as API Gateway hands them to the DICOMweb function,
 * authorised as an app client with read and write scopes (docs/dicom-intake.md#dicomweb-clients).
 */
export const TAGS = {
  ReferencedSOPSequence: '00081199',
  RetrieveURL: '00081190',
  StudyInstanceUID: '0020000D',
  SeriesInstanceUID: '0020000E',
  SOPInstanceUID: '00080018',
  NumberOfStudyRelatedSeries: '00201206',
  NumberOfStudyRelatedInstances: '00201208',
  PatientID: '00100020',
} as const;

export type DicomJson = Record<string, { vr: string; Value?: unknown[] }>;
export type Reply = { statusCode: number; body: string; headers?: Record<string, unknown>; isBase64Encoded?: boolean };

/** Calls the DICOMweb function as the app client `clientId()` names (read when the call is made). */
export function dicomwebClient(clientId: () => string) {
  return async function dicomweb(
    method: string,
    path: string,
    options: { body?: Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const [pathOnly = path, search = ''] = path.split('?');
    const params = new URLSearchParams(search);
    const multi: Record<string, string[]> = {};
    for (const [name, value] of params) (multi[name] ??= []).push(value);
    const matched = matchRoute(method, pathOnly);
    if (!matched) throw new Error(`No route for ${method} ${path}`);
    const event = {
      httpMethod: method,
      path: pathOnly,
      resource: matched.route.path,
      pathParameters: matched.pathParameters,
      queryStringParameters: search ? Object.fromEntries(params) : null,
      headers: { host: 'harness.test', ...options.headers },
      multiValueHeaders: {},
      multiValueQueryStringParameters: search ? multi : null,
      stageVariables: null,
      isBase64Encoded: options.body !== undefined,
      body: options.body ? Buffer.from(options.body).toString('base64') : null,
      requestContext: {
        authorizer: {
          claims: {
            token_use: 'access',
            client_id: clientId(),
            scope: 'imaging-dicomweb/read imaging-dicomweb/write',
          },
        },
      },
    } as unknown as APIGatewayProxyEvent;
    const { handler } = await import('#functions/dicomweb/handler.ts');
    return (await handler(event, {} as Context)) as Reply;
  };
}

export const json = <T>(reply: Reply): T => JSON.parse(reply.body) as T;
export const first = (dataset: DicomJson, tag: string) => dataset[tag]?.Value?.[0];

/** The instances of a WADO-RS answer (multipart/related of application/dicom). */
export function parts(reply: Reply): Uint8Array[] {
  const type = parseMediaType(String(reply.headers?.['Content-Type'] ?? reply.headers?.['content-type']));
  return parseMultipart(new Uint8Array(Buffer.from(reply.body, 'base64')), type.params.boundary!).map((p) => p.bytes);
}

/**
 * Registers the file's beforeAll/afterAll: one harness, and one DICOMweb client of the demo neuroradiology team
 * registered by Northside's admin under `name`. The returned harness is filled in by beforeAll.
 */
export function useDicomwebHarness(name: string): { h: Harness; dicomweb: ReturnType<typeof dicomwebClient> } {
  const h = {} as Harness;
  let clientId = '';
  beforeAll(async () => {
    Object.assign(h, await startHarness());
    const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
      as: 'admin@northside.demo.local',
      body: { name, teamId: 'team-northside-neuroradiology', quietSeconds: 300 },
    });
    expect(created.status).toBe(201);
    clientId = created.body.integration.clientId as string;
  }, 60_000);
  afterAll(async () => {
    await h.stop?.();
  });
  return { h, dicomweb: dicomwebClient(() => clientId) };
}
