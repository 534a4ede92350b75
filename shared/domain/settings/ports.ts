import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';
import type {
  HospitalProfile,
  NotificationPreferences,
  Policy,
  TeamPolicyOverrides,
  UserProfile,
} from '#shared/schemas/api/policies.ts';

export type Stored<T> = { value: T; updatedAt: string; updatedByUserId: string };

/** A dataset the retention job may look at: only what it needs to decide. */
export type RetentionCandidate = { id: string; hospitalId: string; teamId: string | null; createdAt: string };

/**
 * The policies of every level, the settings of each user and the few hospital figures the checks read
 * (docs/domain.md#policies-and-inheritance). One item per policy level; an absent item means the defaults.
 */
export type SettingsStore = {
  getSystemPolicy(): Promise<Stored<Policy> | undefined>;
  putSystemPolicy(policy: Stored<Policy>): Promise<void>;
  getHospitalPolicy(hospitalId: string): Promise<Stored<Policy> | undefined>;
  putHospitalPolicy(hospitalId: string, policy: Stored<Policy>): Promise<void>;
  getTeamPolicy(hospitalId: string, teamId: string): Promise<Stored<TeamPolicyOverrides> | undefined>;
  putTeamPolicy(hospitalId: string, teamId: string, overrides: Stored<TeamPolicyOverrides>): Promise<void>;

  /** The hospital item's profile fields. */
  getHospitalProfile(hospitalId: string): Promise<(Partial<HospitalProfile> & { name: string }) | undefined>;
  updateHospitalProfile(hospitalId: string, profile: HospitalProfile, at: string): Promise<void>;
  /** The hospital item's `storageUsedBytes` counter; 0 where it is absent or not a number. */
  storageUsedBytes(hospitalId: string): Promise<number>;
  /** Every hospital id (the retention job walks them). */
  listHospitalIds(): Promise<string[]>;
  /** Claims the sending of a hospital's monthly report for `month` (yyyy-mm): true once, false for every later try. */
  claimMonthlyReport(hospitalId: string, month: string, at: string): Promise<boolean>;

  getUserProfile(
    hospitalId: string,
    userId: string,
  ): Promise<(UserProfile & { email: string; avatarKey?: string }) | undefined>;
  updateUserProfile(
    hospitalId: string,
    userId: string,
    fields: Partial<UserProfile & { avatarKey: string }>,
  ): Promise<void>;
  getNotificationPreferences(hospitalId: string, userId: string): Promise<NotificationPreferences | undefined>;
  putNotificationPreferences(hospitalId: string, userId: string, preferences: NotificationPreferences): Promise<void>;
};

export type StoredDeidentificationPolicy = DeidentificationPolicy & { updatedAt: string; updatedByUserId: string };

/** One de-identification policy item per hospital. */
export type DeidentificationPolicies = {
  get(hospitalId: string): Promise<StoredDeidentificationPolicy | undefined>;
  put(hospitalId: string, policy: StoredDeidentificationPolicy): Promise<void>;
};
