import { UNLIMITED_OPENS, type Policy, type TeamPolicyOverrides } from '#shared/schemas/api/policies.ts';
import { ValidationError } from '#shared/domain/errors.ts';

/**
 * The one policy resolver (docs/domain.md#policies-and-inheritance). System maximums → hospital policy → team
 * overrides: each level may only be more restrictive than the one above. Every check of the server (uploads, run
 * slots, retention, shares) reads the policy it gets from `resolvePolicy`, and every write of a level is checked by
 * `lessRestrictiveFields` against the level above.
 *
 * Each restricting field has a direction:
 * - `max`: a number where lower is stricter (retention days, file size, storage cap, run slots, expiry);
 * - `opens`: like `max`, with -1 meaning unlimited;
 * - `allow`: a permission, stricter when off (external sharing, public sharing, downloads);
 * - `require`: a safeguard, stricter when on (approval, OTP, watermark, two-factor);
 * - `subset`: a list of what is allowed, stricter when it holds fewer (formats, share scopes).
 * Fields with no direction (thresholds, default member role, SSO) belong to the hospital alone and are not inherited.
 */
type Direction = 'max' | 'opens' | 'allow' | 'require' | 'subset';

export type PolicyRule = { path: readonly string[]; label: string; direction: Direction; team: boolean };

export const POLICY_RULES: readonly PolicyRule[] = [
  { path: ['dataRetentionDays'], label: 'Data retention', direction: 'max', team: true },
  { path: ['maxFileSizeMB'], label: 'Max file size', direction: 'max', team: true },
  { path: ['allowedFormats'], label: 'Allowed formats', direction: 'subset', team: true },
  { path: ['shareWithExternal'], label: 'Share with external', direction: 'allow', team: true },
  { path: ['requireApproval'], label: 'Require approval', direction: 'require', team: true },
  { path: ['allowPublicSharing'], label: 'Allow public sharing', direction: 'allow', team: true },
  { path: ['userAndTeam', 'autoApproveTeamLeads'], label: 'Auto-approve team leads', direction: 'allow', team: false },
  { path: ['storageCompute', 'storageCapGB'], label: 'Storage cap', direction: 'max', team: false },
  {
    path: ['storageCompute', 'computeThrottles', 'queueConcurrency'],
    label: 'Queue concurrency',
    direction: 'max',
    team: false,
  },
  { path: ['patientShare', 'requireOTP'], label: 'Require OTP', direction: 'require', team: true },
  { path: ['patientShare', 'defaultExpiryHours'], label: 'Share expiry', direction: 'max', team: true },
  { path: ['patientShare', 'maxOpens'], label: 'Max opens', direction: 'opens', team: true },
  { path: ['patientShare', 'watermarkEnabled'], label: 'Watermark', direction: 'require', team: true },
  { path: ['patientShare', 'downloadsEnabled'], label: 'Downloads', direction: 'allow', team: true },
  { path: ['patientShare', 'allowedScopes'], label: 'Allowed scopes', direction: 'subset', team: true },
  { path: ['security', 'twoFactorRequired'], label: 'Two-Factor Authentication', direction: 'require', team: false },
];

type Value = number | boolean | readonly string[];

function read(source: unknown, path: readonly string[]): Value | undefined {
  let node: unknown = source;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node as Value | undefined;
}

function write<T>(target: T, path: readonly string[], value: Value): T {
  const [head, ...rest] = path;
  const node = target as Record<string, unknown>;
  return {
    ...node,
    [head!]: rest.length === 0 ? value : write((node[head!] ?? {}) as Record<string, unknown>, rest, value),
  } as T;
}

const opens = (n: number) => (n === UNLIMITED_OPENS ? Number.POSITIVE_INFINITY : n);

/** True when `candidate` is at most as permissive as `ceiling` in the rule's direction. */
function withinCeiling(direction: Direction, candidate: Value, ceiling: Value): boolean {
  switch (direction) {
    case 'max':
      return (candidate as number) <= (ceiling as number);
    case 'opens':
      return opens(candidate as number) <= opens(ceiling as number);
    case 'allow':
      return !candidate || !!ceiling;
    case 'require':
      return !!candidate || !ceiling;
    case 'subset':
      return (candidate as readonly string[]).every((v) => (ceiling as readonly string[]).includes(v));
  }
}

/** The stricter of two values in the rule's direction. */
function stricter(direction: Direction, a: Value, b: Value): Value {
  switch (direction) {
    case 'max':
      return Math.min(a as number, b as number);
    case 'opens':
      return opens(a as number) <= opens(b as number) ? a : b;
    case 'allow':
      return !!a && !!b;
    case 'require':
      return !!a || !!b;
    case 'subset':
      return (a as readonly string[]).filter((v) => (b as readonly string[]).includes(v));
  }
}

/** The rules a candidate breaks against the level above (labels, in rule order). */
export function lessRestrictiveFields(
  candidate: Policy | TeamPolicyOverrides,
  ceiling: Policy,
  rules: readonly PolicyRule[] = POLICY_RULES,
): PolicyRule[] {
  return rules.filter((rule) => {
    const value = read(candidate, rule.path);
    const limit = read(ceiling, rule.path);
    return value !== undefined && limit !== undefined && !withinCeiling(rule.direction, value, limit);
  });
}

/**
 * Refuses a level looser than the one above it with POLICY_LESS_RESTRICTIVE naming the first field, and every such
 * field in `details`.
 */
export function assertNotLessRestrictive(
  candidate: Policy | TeamPolicyOverrides,
  ceiling: Policy,
  level: 'system maximums' | 'hospital defaults',
  rules: readonly PolicyRule[] = POLICY_RULES,
): void {
  const broken = lessRestrictiveFields(candidate, ceiling, rules);
  if (broken.length === 0) return;
  throw new ValidationError(
    'POLICY_LESS_RESTRICTIVE',
    { field: broken[0]!.label, level },
    broken.map((rule) => ({ path: rule.path.join('.'), message: `${rule.label} may not be less restrictive` })),
  );
}

export const TEAM_RULES = POLICY_RULES.filter((rule) => rule.team);

/**
 * The policy in force: the hospital's policy clamped under the system maximums (a super admin may have lowered them
 * after the hospital set its own), then the team's overrides clamped under that.
 */
export function resolvePolicy(levels: { system: Policy; hospital: Policy; team?: TeamPolicyOverrides }): Policy {
  let policy = levels.hospital;
  for (const rule of POLICY_RULES) {
    const own = read(policy, rule.path);
    const ceiling = read(levels.system, rule.path);
    if (own !== undefined && ceiling !== undefined)
      policy = write(policy, rule.path, stricter(rule.direction, own, ceiling));
  }
  if (levels.team) {
    for (const rule of TEAM_RULES) {
      const override = read(levels.team, rule.path);
      const inherited = read(policy, rule.path);
      if (override !== undefined && inherited !== undefined)
        policy = write(policy, rule.path, stricter(rule.direction, override, inherited));
    }
  }
  // Downloads scope requires downloads (docs/domain.md#policies-and-inheritance: "Requires Downloads").
  if (!policy.patientShare.downloadsEnabled && policy.patientShare.allowedScopes.includes('downloads'))
    policy = {
      ...policy,
      patientShare: {
        ...policy.patientShare,
        allowedScopes: policy.patientShare.allowedScopes.filter((s) => s !== 'downloads'),
      },
    };
  if (policy.storageCompute.alertThresholds.critical < policy.storageCompute.alertThresholds.warning)
    policy = write(
      policy,
      ['storageCompute', 'alertThresholds', 'critical'],
      policy.storageCompute.alertThresholds.warning,
    );
  return policy;
}
