import type { SettingsStore, Stored } from '#shared/domain/settings/ports.ts';
import type {
  HospitalProfile,
  NotificationPreferences,
  Policy,
  TeamPolicyOverrides,
  UserProfile,
} from '#shared/schemas/api/policies.ts';

/** The settings port in memory: policies, profiles, preferences and the storage-used counter. */
export function createMemorySettingsStore(
  init: { storageUsedBytes?: Record<string, number>; hospitals?: string[] } = {},
) {
  const policies = new Map<string, Stored<unknown>>();
  const profiles = new Map<string, Record<string, unknown>>();
  const preferences = new Map<string, NotificationPreferences>();
  const storage = new Map(Object.entries(init.storageUsedBytes ?? {}));
  const monthlyReports = new Set<string>();
  const hospitalProfiles = new Map<string, Partial<HospitalProfile> & { name: string }>(
    (init.hospitals ?? ['h1']).map((id) => [id, { name: `Hospital ${id}` }]),
  );
  const store: SettingsStore = {
    getSystemPolicy: async () => policies.get('system') as Stored<Policy> | undefined,
    putSystemPolicy: async (p) => void policies.set('system', p),
    getHospitalPolicy: async (h) => policies.get(`h/${h}`) as Stored<Policy> | undefined,
    putHospitalPolicy: async (h, p) => void policies.set(`h/${h}`, p),
    getTeamPolicy: async (h, t) => policies.get(`t/${h}/${t}`) as Stored<TeamPolicyOverrides> | undefined,
    putTeamPolicy: async (h, t, p) => void policies.set(`t/${h}/${t}`, p),
    getHospitalProfile: async (h) => hospitalProfiles.get(h),
    updateHospitalProfile: async (h, profile) => void hospitalProfiles.set(h, profile),
    storageUsedBytes: async (h) => storage.get(h) ?? 0,
    listHospitalIds: async () => [...hospitalProfiles.keys()],
    claimMonthlyReport: async (h, month) => {
      if (monthlyReports.has(`${h}/${month}`)) return false;
      monthlyReports.add(`${h}/${month}`);
      return true;
    },
    getUserProfile: async (h, u) =>
      profiles.get(`${h}/${u}`) as (UserProfile & { email: string; avatarKey?: string }) | undefined,
    updateUserProfile: async (h, u, fields) =>
      void profiles.set(`${h}/${u}`, { ...(profiles.get(`${h}/${u}`) ?? {}), ...fields }),
    getNotificationPreferences: async (h, u) => preferences.get(`${h}/${u}`),
    putNotificationPreferences: async (h, u, p) => void preferences.set(`${h}/${u}`, p),
  };
  return { ...store, policies, profiles, preferences, storage, hospitalProfiles };
}
