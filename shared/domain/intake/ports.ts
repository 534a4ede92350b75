import type { IntegrationRecord, IntegrationStore } from '#shared/domain/integrations/ports.ts';
import type { DatasetRepository, PipelineStarter, Pseudonymizer } from '#shared/domain/datasets/ports.ts';
import type { AuditLog, Clock, IdGenerator } from '#shared/domain/ports.ts';
import type { DeidentificationPolicies, SettingsStore } from '#shared/domain/settings/ports.ts';
import type { OrganisationCounters } from '#shared/domain/organisation/ports.ts';
import type { ObjectStore } from '#shared/domain/storage.ts';

/**
 * A study being received from one integration (docs/dicom-intake.md#intake): the dataset its instances go to, the
 * next raw file index, and when it may be committed. The item lives from the first instance to the commit, which
 * deletes it; an instance of the same study after that starts a new dataset.
 */
export type IntakeStudyRecord = {
  hospitalId: string;
  integrationId: string;
  /** The StudyInstanceUID as received (checked against PS3.5 9.1); deleted with the item at the commit. */
  studyInstanceUID: string;
  datasetId: string;
  teamId: string;
  fileCount: number;
  receivedBytes: number;
  firstReceivedAt: string;
  lastReceivedAt: string;
  /** lastReceivedAt + the integration's quiet time: the sweep commits the study once this has passed. */
  commitAfter: string;
  /**
   * When a commit closed the study: no instance joins it from then on, and the item stays (still due) until the commit
   * has started the pipeline, so a commit cut short is found again and finished (docs/dicom-intake.md#commit).
   */
  committingAt?: string;
};

export type IntakeStore = {
  get(hospitalId: string, integrationId: string, studyInstanceUID: string): Promise<IntakeStudyRecord | undefined>;
  /** Creates the item unless one exists (false then). */
  create(record: IntakeStudyRecord): Promise<boolean>;
  /**
   * Takes the next raw file index of the study and adds the bytes, moving lastReceivedAt and commitAfter (one
   * conditional update); undefined when the study was committed or closed for its commit meanwhile.
   */
  reserveFile(
    hospitalId: string,
    integrationId: string,
    studyInstanceUID: string,
    bytes: number,
    at: string,
    commitAfter: string,
  ): Promise<{ fileIndex: number; datasetId: string } | undefined>;
  /**
   * Closes the study for its commit (committingAt, kept from the first close) and returns it; undefined when there is
   * no such study (a commit finished it). Closing a closed study returns it again: that is how a retry finishes.
   */
  closeForCommit(
    hospitalId: string,
    integrationId: string,
    studyInstanceUID: string,
    at: string,
  ): Promise<IntakeStudyRecord | undefined>;
  /** Deletes the item: the last write of a commit. */
  remove(hospitalId: string, integrationId: string, studyInstanceUID: string): Promise<void>;
  /**
   * The bytes of every study of the hospital still being received (its items' receivedBytes, a read of the hospital's
   * partition): what counts against the storage cap before the commit adds it to the hospital's counter.
   */
  receivingBytes(hospitalId: string): Promise<number>;
  /** Studies of every hospital whose commitAfter has passed, oldest first (an index read). */
  due(now: string, limit: number): Promise<IntakeStudyRecord[]>;
};

export type IntakeDeps = {
  intake: IntakeStore;
  integrations: Pick<IntegrationStore, 'touch'>;
  datasets: DatasetRepository;
  objects: Pick<ObjectStore, 'put' | 'get' | 'list'>;
  organisation: OrganisationCounters;
  policies: DeidentificationPolicies;
  /** The policy in force (file size, formats, storage cap) and the hospital's storage counter (intake-rules.ts). */
  settings: Pick<SettingsStore, 'getSystemPolicy' | 'getHospitalPolicy' | 'getTeamPolicy' | 'storageUsedBytes'>;
  pseudonymizer: Pseudonymizer;
  pseudonymSecret(): Promise<string>;
  pipeline: PipelineStarter;
  audit: AuditLog;
  clock: Clock;
  ids: IdGenerator;
};

/** Who sent an instance: an active integration, and by which service. */
export type IntakeSource = { integration: IntegrationRecord; via: 'STOW_RS' | 'C_STORE' };
