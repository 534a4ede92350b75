import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '#shared/definitions/api/routes.ts';
import { buildMultipart } from '#shared/domain/intake/multipart.ts';
import { createListener } from '#functions/dicom-listener/server.ts';
import { createMachineClients } from '#functions/adapters/cognito/identity-admin.ts';
import { startCognito, type CognitoService, type PoolIds } from '#infra/local/cognito.ts';
import { buildDicom } from '#tests/helpers/dicom-builder.ts';
import { startHarness, type Harness } from './datasets-harness.ts';

/**
 * Deactivating a hospital reaches every principal of it, not only its users (docs/domain.md#deactivation).
 * From the outside: its DICOMweb client's token over the DICOMweb routes, its DICOMweb client at the token endpoint of
 * the twin's Cognito stand-in, its DICOM node through the C-STORE listener with dcmtk's echoscu and storescu;
 * restoring the hospital brings them all back.
 */
const SUPER = 'superadmin@demo.local';
const ADMIN = 'admin@northside.demo.local';
const TEAM = 'team-northside-neuroradiology';

let h: Harness;
let hospitalId: string;
let hospitalName: string;

beforeAll(async () => {
  h = await startHarness();
  hospitalId = h.user(ADMIN).hospitalId;
  hospitalName = (await h.deps.directory.getHospital(hospitalId))!.name;
});
afterAll(async () => {
  await h?.stop();
});

async function deactivate() {
  const response = await h.call('DELETE', `/api/hospitals/${hospitalId}`, {
    as: SUPER,
    body: { confirmName: hospitalName, acknowledgeImpact: true },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  // The identities and DICOMweb clients are walked by the job (docs/jobs.md).
  await h.settleJobs();
}

async function restore() {
  const response = await h.call('POST', `/api/hospitals/${hospitalId}/restore`, { as: SUPER });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  await h.settleJobs();
}

/** A DICOMweb request as API Gateway hands it over once the Cognito authorizer verified the client's access token. */
async function dicomweb(
  clientId: string,
  method: string,
  path: string,
  body?: { bytes: Uint8Array; contentType: string },
): Promise<{ status: number; body: string }> {
  const matched = matchRoute(method, path)!;
  const event = {
    httpMethod: method,
    path,
    resource: matched.route.path,
    pathParameters: matched.pathParameters,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    headers: body ? { 'content-type': body.contentType } : {},
    multiValueHeaders: {},
    stageVariables: null,
    isBase64Encoded: Boolean(body),
    body: body ? Buffer.from(body.bytes).toString('base64') : null,
    requestContext: {
      authorizer: {
        claims: { client_id: clientId, token_use: 'access', scope: 'imaging-dicomweb/read imaging-dicomweb/write' },
      },
    },
  } as unknown as APIGatewayProxyEvent;
  const { handler } = await import('#functions/dicomweb/handler.ts');
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, body: result.body };
}

function stow(clientId: string) {
  const boundary = 'deactivation-test-boundary';
  const bytes = buildMultipart([{ contentType: 'application/dicom', bytes: buildDicom() }], boundary);
  return dicomweb(clientId, 'POST', '/dicomweb/studies', {
    bytes,
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  });
}

describe("a deactivated hospital's DICOMweb client", () => {
  it('is refused on QIDO-RS and STOW-RS with HOSPITAL_DEACTIVATED, its token notwithstanding, and works again once restored', async () => {
    // Arrange
    const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
      as: ADMIN,
      body: { name: 'Research PACS', teamId: TEAM, quietSeconds: 10 },
    });
    expect(created.status).toBe(201);
    const clientId = created.body.integration.clientId as string;
    expect((await dicomweb(clientId, 'GET', '/dicomweb/studies')).status).toBe(200);
    expect((await stow(clientId)).status).toBe(200);

    // Act
    await deactivate();
    const search = await dicomweb(clientId, 'GET', '/dicomweb/studies');
    const store = await stow(clientId);
    await restore();
    const searchAfter = await dicomweb(clientId, 'GET', '/dicomweb/studies');
    const storeAfter = await stow(clientId);

    // Assert
    for (const refused of [search, store]) {
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe('HOSPITAL_DEACTIVATED');
    }
    expect(searchAfter.status).toBe(200);
    expect(storeAfter.status).toBe(200);
  });
});

describe("a deactivated hospital's DICOMweb client at the token endpoint", () => {
  let cognito: CognitoService;
  let server: Server;
  let tokenUrl: string;
  let dataDir: string;
  let harnessClients: Harness['deps']['machineClients'];

  beforeAll(async () => {
    // The twin's Cognito stand-in alone, its pool's endpoints on one port as the twin serves them under /_aws/cognito.
    dataDir = mkdtempSync(join(tmpdir(), 'deact-cognito-'));
    cognito = await startCognito(dataDir, 'http://127.0.0.1/_aws/cognito');
    const ids: PoolIds = await cognito.bootstrap();
    server = createHttpServer((req, res) => {
      const path = req.url ?? '/';
      if (path.split('?')[0] === '/oauth2/token') cognito.handleToken(ids, req, res);
      else cognito.handle(req, res, path);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    tokenUrl = `${endpoint}/oauth2/token`;
    harnessClients = h.deps.machineClients;
    h.deps.machineClients = createMachineClients({
      region: 'us-east-1',
      userPoolId: () => ids.userPoolId,
      client: new CognitoIdentityProviderClient({
        region: 'us-east-1',
        endpoint,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    });
  }, 60_000);
  afterAll(async () => {
    if (harnessClients) h.deps.machineClients = harnessClients;
    await new Promise((resolve) => server?.close(resolve));
    await cognito?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The client-credentials grant (RFC 6749 4.4), the client authenticated with HTTP Basic. */
  async function token(clientId: string, secret: string) {
    const response = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('gets unauthorized_client while the hospital is deactivated, and a token with its scopes again after restore', async () => {
    // Arrange
    const created = await h.call('POST', '/api/integrations/dicomweb-clients', {
      as: ADMIN,
      body: { name: 'Token PACS', teamId: TEAM, scopes: ['read'], quietSeconds: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clientId = created.body.integration.clientId as string;
    const secret = created.body.clientSecret as string;
    const before = await token(clientId, secret);

    // Act
    await deactivate();
    const refused = await token(clientId, secret);
    await restore();
    const after = await token(clientId, secret);

    // Assert
    expect(before.status).toBe(200);
    expect(refused).toEqual({ status: 400, body: { error: 'unauthorized_client' } });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const claims = JSON.parse(Buffer.from(String(after.body.access_token).split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ client_id: clientId, scope: 'imaging-dicomweb/read' });
  });
});

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args);
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a deactivated hospital's DICOM node", () => {
  it('has its association rejected by the listener (echoscu and storescu), and is admitted again once restored', async () => {
    // Arrange
    const created = await h.call('POST', '/api/integrations/dicom-nodes', {
      as: ADMIN,
      body: { name: 'CT scanner', teamId: TEAM, aeTitle: 'DEACT24', allowedAddresses: ['127.0.0.1'], quietSeconds: 10 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const port = await freePort();
    const lines: string[] = [];
    const listener = createListener({ port, host: '127.0.0.1', deps: async () => h.deps, log: (l) => lines.push(l) });
    await listener.listen();
    const file = join(mkdtempSync(join(tmpdir(), 'deact24-')), 'instance.dcm');
    writeFileSync(file, buildDicom());
    const echo = () => run('echoscu', ['-aet', 'DEACT24', '-aec', 'IWS-INTAKE', '127.0.0.1', String(port)]);
    const store = () => run('storescu', ['-aet', 'DEACT24', '-aec', 'IWS-INTAKE', '127.0.0.1', String(port), file]);
    try {
      expect((await echo()).code).toBe(0);

      // Act
      await deactivate();
      const refusedEcho = await echo();
      const refusedStore = await store();
      await restore();
      const echoAfter = await echo();
      const storeAfter = await store();

      // Assert
      expect(refusedEcho.code).not.toBe(0);
      expect(refusedEcho.output).toMatch(/Association Rejected/i);
      expect(refusedStore.code).not.toBe(0);
      expect(lines).toContain(`DICOM association refused (HOSPITAL_DEACTIVATED) ${hospitalId}/${created.body.id}`);
      expect(echoAfter.code, echoAfter.output).toBe(0);
      expect(storeAfter.code, storeAfter.output).toBe(0);
    } finally {
      await listener.close();
    }
  });
});
