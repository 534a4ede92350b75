import type { SamlMetadata, SsoSettings } from '#shared/schemas/api/sso.ts';
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

/** A hospital's single sign-on configuration as stored: never its client secret (docs/sso.md). */
export type StoredSso = SsoSettings;

/**
 * Single sign-on configurations and the e-mail domains they own. A domain belongs to one hospital across the
 * deployment: its claim is a conditional write of a lookup item.
 */
export type SsoStore = {
  get(hospitalId: string): Promise<StoredSso | undefined>;
  /**
   * Claims each domain for the hospital (one already its own is kept), then releases the hospital's domains no longer
   * listed and writes the configuration. Answers the first domain another hospital owns (nothing is written then).
   */
  save(hospitalId: string, sso: StoredSso): Promise<{ taken?: string }>;
  /** Removes the configuration and frees its domains. */
  remove(hospitalId: string): Promise<void>;
  /** The hospital that owns an e-mail domain, with its configuration. */
  byDomain(domain: string): Promise<(StoredSso & { hospitalId: string }) | undefined>;
};

/** What the user pool needs of a hospital's OIDC provider. */
export type OidcProviderSpec = {
  type?: 'OIDC';
  name: string;
  issuer: string;
  clientId: string;
  /** Left out: the secret the pool already holds is kept. */
  clientSecret?: string;
  domains: readonly string[];
  groupsClaim: string;
  /** Whether the site's app client lists the provider (single sign-on on). */
  enabled: boolean;
};

/** What the user pool needs of a hospital's SAML 2.0 provider: its metadata by URL or as a file. */
export type SamlProviderSpec = {
  type: 'SAML';
  name: string;
  /** The pool reads the metadata at this URL (and again as it changes). */
  metadataUrl?: string;
  /** The metadata document itself. Neither given: the metadata the pool already holds is kept. */
  metadataXml?: string;
  domains: readonly string[];
  /** The assertion's attribute that lists the user's groups. */
  groupsClaim: string;
  enabled: boolean;
};

export type IdentityProviderSpec = OidcProviderSpec | SamlProviderSpec;

/** The user pool's identity providers and the site client's list of the providers it may use. */
export type IdentityProviders = {
  /** Creates or updates the provider, and adds it to the site client's providers or takes it off (`enabled`). */
  upsert(spec: IdentityProviderSpec): Promise<void>;
  /** Takes the provider off the site client and deletes it; a provider already gone is not an error. */
  remove(name: string): Promise<void>;
};

/**
 * Reads and checks a SAML provider's metadata (its URL read over HTTPS, or the file's XML): answers the document and
 * what was read of it; throws with a short reason when it cannot be read or is not an identity provider's metadata.
 */
export type SamlMetadataReader = (source: { metadataUrl?: string; metadataXml?: string }) => Promise<{
  xml: string;
  metadata: SamlMetadata;
}>;

/** Reads a JSON document over HTTPS (the provider's discovery document and key set); throws with a short reason. */
export type JsonFetcher = (url: string) => Promise<unknown>;
