import type { Integration } from '#shared/schemas/api/integrations.ts';

/** An integration as stored: the API shape (the client secret is never stored). */
export type IntegrationRecord = Integration;

/**
 * Integrations of each hospital, and the two lookups that find one from outside a hospital: an app client's id (the
 * `client_id` claim of an access token) and a calling AE title (an association's). AE titles are unique over the
 * deployment, because one listener serves every hospital (docs/dicom-intake.md#dicom-nodes).
 */
export type IntegrationStore = {
  /** Writes the integration and its lookup; false when its AE title is taken (nothing is written then). */
  create(record: IntegrationRecord): Promise<boolean>;
  get(hospitalId: string, integrationId: string): Promise<IntegrationRecord | undefined>;
  list(hospitalId: string): Promise<IntegrationRecord[]>;
  byClientId(clientId: string): Promise<IntegrationRecord | undefined>;
  byAeTitle(aeTitle: string): Promise<IntegrationRecord | undefined>;
  /** Marks it REVOKED and frees its AE title; returns the integration as it now is. */
  revoke(hospitalId: string, integrationId: string, at: string): Promise<IntegrationRecord>;
  /** Records the last use (at most once a minute is enough for the list's "last used"). */
  touch(hospitalId: string, integrationId: string, at: string): Promise<void>;
};

/** App clients of the user pool with the client-credentials grant and the DICOMweb resource server's scopes. */
export type MachineClients = {
  create(name: string, scopes: readonly string[]): Promise<{ clientId: string; clientSecret: string }>;
  remove(clientId: string): Promise<void>;
  /**
   * Turns the client-credentials grant off (the token endpoint then refuses the client), keeping the client's id,
   * secret and other settings; a client already off or gone is left as it is.
   */
  suspend(clientId: string): Promise<void>;
  /** Turns the grant on again with these scopes (the integration's); a client gone is left as it is. */
  resume(clientId: string, scopes: readonly string[]): Promise<void>;
};

/** Where clients and nodes reach the product (shown on the Integrations section). */
export type IntakeEndpoints = {
  dicomWebUrl: string;
  tokenUrl: string;
  dicomPort?: number;
  calledAeTitle: string;
};
