import {
  AVATAR_MAX_BYTES,
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  type UpdateUserProfileRequest,
  type UserProfileResponse,
} from '#shared/schemas/api/policies.ts';
import type { Caller } from '#shared/domain/auth/caller.ts';
import type { AuditLog } from '#shared/domain/ports.ts';
import { NotFoundError, ValidationError } from '#shared/domain/errors.ts';
import type { SettingsStore } from './ports.ts';

/** How long the avatar's presigned URLs live. */
export const AVATAR_URL_TTL_SECONDS = 300;

/** The one object of a user's avatar, in the assets bucket under the hospital (docs/domain.md#settings). */
export function avatarKey(hospitalId: string, userId: string): string {
  return `${hospitalId}/_avatars/${userId}`;
}

/** Presigned PUT of the avatar: an object store that can sign a single PUT with its content type and length. */
export type AvatarSigner = {
  presignPut(key: string, contentType: string, sizeBytes: number, expiresInSeconds: number): Promise<string>;
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
};

type Deps = { settings: SettingsStore; audit: AuditLog };

export async function getMyProfile(
  caller: Caller,
  deps: Deps & { avatars: AvatarSigner },
): Promise<UserProfileResponse> {
  const profile = await deps.settings.getUserProfile(caller.hospitalId, caller.userId);
  if (!profile) throw new NotFoundError('USER_NOT_FOUND');
  const { avatarKey: key, ...rest } = profile;
  return {
    ...rest,
    avatarUrl: key ? await deps.avatars.presignGet(key, AVATAR_URL_TTL_SECONDS) : null,
  };
}

/** Name, phone and specialization of the caller; audited without the values (they are the user's own data). */
export async function updateMyProfile(
  profile: UpdateUserProfileRequest,
  caller: Caller,
  deps: Deps & { avatars: AvatarSigner },
): Promise<UserProfileResponse> {
  await deps.settings.updateUserProfile(caller.hospitalId, caller.userId, profile);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'PROFILE_UPDATED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { fields: Object.keys(profile).sort() },
  });
  return getMyProfile(caller, deps);
}

/** A presigned PUT for the avatar (2MB, JPG, GIF or PNG); the key is stored at once, so the next GET shows it. */
export async function startAvatarUpload(
  request: { contentType: string; sizeBytes: number },
  caller: Caller,
  deps: Deps & { avatars: AvatarSigner },
): Promise<{ uploadUrl: string; expiresInSeconds: number }> {
  if (request.sizeBytes > AVATAR_MAX_BYTES) throw new ValidationError('AVATAR_INVALID');
  const key = avatarKey(caller.hospitalId, caller.userId);
  const uploadUrl = await deps.avatars.presignPut(key, request.contentType, request.sizeBytes, AVATAR_URL_TTL_SECONDS);
  await deps.settings.updateUserProfile(caller.hospitalId, caller.userId, { avatarKey: key });
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'AVATAR_CHANGED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { contentType: request.contentType, sizeBytes: request.sizeBytes },
  });
  return { uploadUrl, expiresInSeconds: AVATAR_URL_TTL_SECONDS };
}

export async function getNotificationPreferences(
  caller: Caller,
  deps: { settings: SettingsStore },
): Promise<NotificationPreferences> {
  return (
    (await deps.settings.getNotificationPreferences(caller.hospitalId, caller.userId)) ??
    DEFAULT_NOTIFICATION_PREFERENCES
  );
}

export async function setNotificationPreferences(
  preferences: NotificationPreferences,
  caller: Caller,
  deps: Deps,
): Promise<NotificationPreferences> {
  const before = await getNotificationPreferences(caller, deps);
  await deps.settings.putNotificationPreferences(caller.hospitalId, caller.userId, preferences);
  await deps.audit.record({
    hospitalId: caller.hospitalId,
    action: 'NOTIFICATION_PREFERENCES_CHANGED',
    actorUserId: caller.userId,
    actorName: `${caller.firstName} ${caller.lastName}`,
    details: { before, after: preferences },
  });
  return preferences;
}
