import type { TokenMint } from '#shared/domain/invitations/ports.ts';
import type { OrganisationDeps } from '#shared/domain/organisation/ports.ts';
import type { SettingsStore, SsoStore } from '#shared/domain/settings/ports.ts';

/**
 * A hospital's SCIM bearer token (docs/sso.md#provisioning-scim): only its SHA-256 is kept, so the table never holds
 * a token that works. A revoked token keeps its item (the list shows when) and loses its lookup.
 */
export type ScimTokenRecord = {
  id: string;
  hospitalId: string;
  name: string;
  /** SHA-256 of the token, hex. */
  hash: string;
  createdAt: string;
  createdByUserId: string;
  revokedAt?: string;
  revokedByUserId?: string;
};

export type ScimTokenStore = {
  /** Writes the token's item and its lookup by hash. */
  create(token: ScimTokenRecord): Promise<void>;
  list(hospitalId: string): Promise<ScimTokenRecord[]>;
  get(hospitalId: string, tokenId: string): Promise<ScimTokenRecord | undefined>;
  /** The token of this hash, unless revoked. */
  byHash(hash: string): Promise<ScimTokenRecord | undefined>;
  /** Removes the lookup and marks the item revoked. */
  revoke(hospitalId: string, tokenId: string, at: string, byUserId: string): Promise<ScimTokenRecord>;
};

/** What the provisioning core reaches: the organisation's ports (its disable path), the SSO mapping and the tokens. */
export type ScimDeps = OrganisationDeps & {
  scimTokens: ScimTokenStore;
  tokens: TokenMint;
  sso: Pick<SsoStore, 'get'>;
  settings: Pick<SettingsStore, 'getHospitalPolicy'>;
};
