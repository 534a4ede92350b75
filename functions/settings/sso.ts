import { deleteSso, getSso, readSamlMetadata, saveSso, testSsoConnection } from '#shared/domain/settings/sso.ts';
import { httpHandler } from '#functions/lib/http-handler.ts';

/** A hospital's own identity provider on the settings' SSO tab (docs/sso.md). */
export const getHospitalSso = httpHandler('GET /api/hospital-admin/sso', async (_request, caller, deps) =>
  getSso(caller, deps),
);

export const putHospitalSso = httpHandler('PUT /api/hospital-admin/sso', async ({ body }, caller, deps) =>
  saveSso(body, caller, deps),
);

export const deleteHospitalSso = httpHandler('DELETE /api/hospital-admin/sso', async (_request, caller, deps) =>
  deleteSso(caller, deps),
);

export const testHospitalSso = httpHandler('POST /api/hospital-admin/sso/test', async ({ body }, _caller, deps) =>
  testSsoConnection(body.issuer, deps.fetchJson),
);

export const readHospitalSamlMetadata = httpHandler(
  'POST /api/hospital-admin/sso/saml-metadata',
  async ({ body }, _caller, deps) => readSamlMetadata(body, deps),
);
