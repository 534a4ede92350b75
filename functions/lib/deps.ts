import type { Directory } from '#shared/domain/auth/ports.ts';
import type {
  AuditLog,
  Clock,
  DatasetRepository,
  IdGenerator,
  PageTokens,
  PipelineStarter,
  Pseudonymizer,
} from '#shared/domain/datasets/ports.ts';
import type { DeidentificationPolicies } from '#shared/domain/hospitals/ports.ts';
import type { IdentityAdmin, OrganisationStore } from '#shared/domain/organisation/ports.ts';
import type { RunSlotStore } from '#shared/domain/pipeline/run-slots.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';
import type { UploadRepository } from '#shared/domain/uploads/ports.ts';

export type HealthProbe = {
  /** Names of the services that did not answer (table, buckets), empty when all are up. */
  failing(): Promise<string[]>;
};

/** Everything a handler may reach, as ports. Built once per Lambda container from the environment. */
export type ServerDeps = {
  datasets: DatasetRepository;
  audit: AuditLog;
  directory: Directory;
  /** Hospitals, departments, teams and users: index lists, updates and counters. */
  organisation: OrganisationStore;
  /** The user pool's administration (groups, disable/enable, global sign-out). */
  identity: IdentityAdmin;
  policies: DeidentificationPolicies;
  uploads: UploadRepository;
  objects: ObjectStore;
  pipeline: PipelineStarter;
  /** Per-hospital limit of pipeline runs at once. */
  runSlots: RunSlotStore;
  pageTokens: PageTokens;
  pseudonymizer: Pseudonymizer;
  pseudonymSecret(): Promise<string>;
  health: HealthProbe;
  clock: Clock;
  ids: IdGenerator;
};

let current: ServerDeps | undefined;

/** The AWS adapters are imported lazily so that tests with fakes never load the SDK clients. */
export async function getDeps(): Promise<ServerDeps> {
  if (current) return current;
  current = await (await import('#functions/adapters/index.ts')).createAwsDeps();
  return current;
}

/** Tests and the local twin install their own ports (or reset to rebuild from env). */
export function setDeps(deps: ServerDeps | undefined): void {
  current = deps;
}
