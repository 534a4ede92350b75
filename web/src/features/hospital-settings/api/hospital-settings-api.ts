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
import { apiRequest } from '#web/lib/api-client.ts';

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
