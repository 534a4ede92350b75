import useSWR from 'swr';
import {
  DeidentificationPolicyResponseSchema,
  type DeidentificationPolicy,
} from '#shared/schemas/api/hospital-admin.ts';
import {
  HospitalSettingsSchema,
  NotificationPreferencesSchema,
  type NotificationPreferences,
  type PutHospitalSettingsRequest,
} from '#shared/schemas/api/policies.ts';
import {
  CreatedDicomWebClientSchema,
  IntegrationListSchema,
  IntegrationSchema,
  type CreateDicomNodeRequest,
  type CreateDicomWebClientRequest,
} from '#shared/schemas/api/integrations.ts';
import { TeamPageSchema } from '#shared/schemas/api/organisation.ts';
import { apiAllPages, apiRequest } from '#web/lib/api-client.ts';

export const hospitalSettingsKey = '/api/hospital-admin/settings';
export const deidentificationKey = '/api/hospital-admin/deidentification-policy';

export function useHospitalSettings() {
  return useSWR(hospitalSettingsKey, () => apiRequest(hospitalSettingsKey, HospitalSettingsSchema));
}

export function saveHospitalSettings(body: PutHospitalSettingsRequest) {
  return apiRequest(hospitalSettingsKey, HospitalSettingsSchema, { method: 'PUT', body });
}

export function useDeidentificationPolicy() {
  return useSWR(deidentificationKey, () => apiRequest(deidentificationKey, DeidentificationPolicyResponseSchema));
}

export function saveDeidentificationPolicy(body: DeidentificationPolicy) {
  return apiRequest(deidentificationKey, DeidentificationPolicyResponseSchema, { method: 'PUT', body });
}

export const preferencesKey = '/api/me/notification-preferences';

export function useMyNotificationPreferences() {
  return useSWR(preferencesKey, () => apiRequest(preferencesKey, NotificationPreferencesSchema));
}

export function saveMyNotificationPreferences(body: NotificationPreferences) {
  return apiRequest(preferencesKey, NotificationPreferencesSchema, { method: 'PUT', body });
}

export const integrationsKey = '/api/integrations';

/** The hospital's DICOMweb clients and DICOM nodes, with where they connect (docs/dicom-intake.md). */
export function useIntegrations() {
  return useSWR(integrationsKey, () => apiRequest(integrationsKey, IntegrationListSchema));
}

/** The teams an integration may name (the hospital's active teams). */
export function useIntegrationTeams() {
  return useSWR(['/api/teams', 'integrations'], () => apiAllPages('/api/teams', TeamPageSchema));
}

export function createDicomWebClient(body: CreateDicomWebClientRequest) {
  return apiRequest(`${integrationsKey}/dicomweb-clients`, CreatedDicomWebClientSchema, { method: 'POST', body });
}

export function createDicomNode(body: CreateDicomNodeRequest) {
  return apiRequest(`${integrationsKey}/dicom-nodes`, IntegrationSchema, { method: 'POST', body });
}

export function revokeIntegration(integrationId: string) {
  return apiRequest(`${integrationsKey}/${encodeURIComponent(integrationId)}`, IntegrationSchema, {
    method: 'DELETE',
  });
}
