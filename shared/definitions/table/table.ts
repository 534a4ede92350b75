/**
 * The single table's physical design: the ONLY place that names key attributes and indexes.
 * Infra (infra/constructs), the adapters (functions/adapters) and any other DynamoDB-compatible store the
 * table is created in (docs/architecture.md#shared-definitions) all build from this, so they cannot drift.
 *
 * Every base-table partition key starts with the hospital (see keys.ts), so a query can never
 * cross tenants by accident. Indexes are named after the access pattern they serve.
 */
export const TABLE_KEYS = {
  primary: { pk: 'pk', sk: 'sk' },
  /** byHospitalRecent: a hospital's datasets (and other listed entities) newest first. */
  gsi1: { index: 'gsi1', pk: 'gsi1pk', sk: 'gsi1sk' },
  /** byStatus: a hospital's datasets in one status, newest first; also pipeline-wide active work. */
  gsi2: { index: 'gsi2', pk: 'gsi2pk', sk: 'gsi2sk' },
  /** byOwnerOrTeam: a team's (or an owner's) datasets newest first; users by e-mail. */
  gsi3: { index: 'gsi3', pk: 'gsi3pk', sk: 'gsi3sk' },
  /** byScopeName: a hospital's users or teams, or every hospital, in name order (docs/domain.md#indexes). */
  gsi4: { index: 'gsi4', pk: 'gsi4pk', sk: 'gsi4sk' },
  /** byRoleOrActive: a hospital's users of one role; its active teams; hospitals of one status; by name. */
  gsi5: { index: 'gsi5', pk: 'gsi5pk', sk: 'gsi5sk' },
  /** byDepartment: a department's users or teams; hospitals of one plan; by name. */
  gsi6: { index: 'gsi6', pk: 'gsi6pk', sk: 'gsi6sk' },
  /** byTeamOrActiveDepartment: a team's members; a department's active teams; by name. */
  gsi7: { index: 'gsi7', pk: 'gsi7pk', sk: 'gsi7sk' },
} as const;

export const GLOBAL_INDEXES = [
  TABLE_KEYS.gsi1,
  TABLE_KEYS.gsi2,
  TABLE_KEYS.gsi3,
  TABLE_KEYS.gsi4,
  TABLE_KEYS.gsi5,
  TABLE_KEYS.gsi6,
  TABLE_KEYS.gsi7,
] as const;

/** Attribute holding an epoch-seconds expiry; DynamoDB TTL in the cloud, filtered in code everywhere. */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';
