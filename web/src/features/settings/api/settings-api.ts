import useSWR from 'swr';
import { updatePassword, signOut } from 'aws-amplify/auth';
import {
  AvatarUploadResponseSchema,
  HospitalSettingsSchema,
  NotificationPreferencesSchema,
  SystemPolicyResponseSchema,
  UserProfileResponseSchema,
  type NotificationPreferences,
  type Policy,
  type UpdateUserProfileRequest,
} from '#shared/schemas/api/policies.ts';
import { apiRequest } from '#web/lib/api-client.ts';

const PROFILE = '/api/me/profile';
const PREFERENCES = '/api/me/notification-preferences';
const SYSTEM = '/api/system/policy';
const HOSPITAL = '/api/hospital-admin/settings';

export const useProfile = () => useSWR(PROFILE, () => apiRequest(PROFILE, UserProfileResponseSchema));
export const saveProfile = (body: UpdateUserProfileRequest) =>
  apiRequest(PROFILE, UserProfileResponseSchema, { method: 'PUT', body });

/** Asks for a presigned PUT, then stores the image straight in S3 with the type and size it declared. */
export async function uploadAvatar(file: File): Promise<void> {
  const { uploadUrl } = await apiRequest('/api/me/avatar', AvatarUploadResponseSchema, {
    method: 'POST',
    body: { contentType: file.type, sizeBytes: file.size },
  });
  const response = await fetch(uploadUrl, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!response.ok) throw new Error('Upload failed');
}

export const useNotificationPreferences = () =>
  useSWR(PREFERENCES, () => apiRequest(PREFERENCES, NotificationPreferencesSchema));
export const saveNotificationPreferences = (body: NotificationPreferences) =>
  apiRequest(PREFERENCES, NotificationPreferencesSchema, { method: 'PUT', body });

export const useSystemPolicy = (enabled: boolean) =>
  useSWR(enabled ? SYSTEM : null, () => apiRequest(SYSTEM, SystemPolicyResponseSchema));
export const saveSystemPolicy = (policy: Policy) =>
  apiRequest(SYSTEM, SystemPolicyResponseSchema, { method: 'PUT', body: { policy } });

export const useHospitalStorage = (enabled: boolean) =>
  useSWR(enabled ? HOSPITAL : null, () => apiRequest(HOSPITAL, HospitalSettingsSchema));

/** Cognito ChangePassword with the signed-in session's access token. */
export const changePassword = (oldPassword: string, newPassword: string) =>
  updatePassword({ oldPassword, newPassword });

/** Cognito GlobalSignOut: every refresh token of the user is revoked, on every device. */
export const signOutEverywhere = () => signOut({ global: true });
