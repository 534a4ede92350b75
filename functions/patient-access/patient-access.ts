import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  patientDownload,
  patientStudy,
  requestShareCode,
  verifyShareCode,
  type PublicClient,
} from '#shared/domain/shares/patient-access.ts';
import { publicRouteHandler } from '#functions/lib/http-handler.ts';

/** The caller's address as API Gateway saw it, and its browser; only a coarse form is ever stored. */
function clientOf(event: APIGatewayProxyEvent): PublicClient {
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v ?? '']));
  return {
    ip: event.requestContext?.identity?.sourceIp || 'unknown',
    userAgent: headers['user-agent'] ?? '',
  };
}

export const requestCode = publicRouteHandler('POST /api/patient-access/code', async ({ body, event }, deps) =>
  requestShareCode(body.token, clientOf(event), deps),
);

export const verifyCode = publicRouteHandler('POST /api/patient-access/verify', async ({ body, event }, deps) =>
  verifyShareCode(body.token, body.code, clientOf(event), deps),
);

export const study = publicRouteHandler('POST /api/patient-access/study', async ({ body, event }, deps) =>
  patientStudy(body.session, clientOf(event), deps),
);

export const download = publicRouteHandler('POST /api/patient-access/download', async ({ body, event }, deps) =>
  patientDownload(body.session, body.assetId, clientOf(event), deps),
);
