import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { AUDIT_PENDING_STREAM } from '#shared/definitions/table/keys.ts';
import type { Construct } from 'constructs';
import { GLOBAL_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '#shared/definitions/table/table.ts';
import type { StageConfig } from '#infra/config.ts';

export type ImagingTableProps = {
  config: StageConfig;
  tableName: string;
  encryptionKey: IKey;
};

/**
 * The single table, built from TABLE_KEYS exactly as shared/definitions/table/create-table-input.ts builds the local one:
 * string pk/sk, three string-keyed GSIs projecting ALL, on-demand billing. Point-in-time recovery, a
 * customer-managed key, TTL on TTL_ATTRIBUTE and a stream of new images everywhere; deletion protection and RETAIN outside dev.
 */
export function createImagingTable(scope: Construct, id: string, props: ImagingTableProps): Table {
  const table = new Table(scope, id, {
    tableName: props.tableName,
    partitionKey: { name: TABLE_KEYS.primary.pk, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEYS.primary.sk, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    encryption: TableEncryption.CUSTOMER_MANAGED,
    encryptionKey: props.encryptionKey,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: TTL_ATTRIBUTE,
    // The audit appender chains the pending events this stream hands it (docs/domain.md#how-an-event-travels).
    stream: StreamViewType[AUDIT_PENDING_STREAM.view],
    deletionProtection: props.config.isProduction,
    removalPolicy: props.config.dataRemovalPolicy,
  });
  for (const index of GLOBAL_INDEXES) {
    table.addGlobalSecondaryIndex({
      indexName: index.index,
      partitionKey: { name: index.pk, type: AttributeType.STRING },
      sortKey: { name: index.sk, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}
