/**
 * The ports of `shared/domain` held in memory, one file per port family, each with the contract of its DynamoDB or S3
 * adapter (conditional writes, list order, pages) so the domain core runs the same in `iws` and in the tests
 * (docs/architecture.md). Nothing here touches AWS; a process's data lives as long as the process.
 */
export { createMemoryAuditLog, type MemoryAuditLog } from './audit-log.ts';
export { createMemoryDatasetRepository, memoryPageTokens } from './datasets-repository.ts';
export { createMemoryDicomIndex, type MemoryDicomIndex } from './dicom-index.ts';
export { memoryIdempotency, MemoryPersistenceLayer } from './idempotency.ts';
export { createMemoryIntegrationStore, createMemoryMachineClients } from './integrations-store.ts';
export { createMemoryInvitationRepository } from './invitations-repository.ts';
export { createMemoryNotificationLedger } from './notification-ledger.ts';
export { createMemoryNotificationInbox } from './notifications.ts';
export { createMemoryObjectStore } from './object-store.ts';
export { createMemoryOrganisation } from './organisation.ts';
export { createMemoryPolicyRepository } from './policies-repository.ts';
export { createMemorySettingsStore } from './settings-store.ts';
export { createMemoryIdentityProviders, createMemorySsoStore } from './sso-store.ts';
export { createMemoryShareStore } from './shares-store.ts';
export { createMemoryUploadRepository } from './uploads-repository.ts';
