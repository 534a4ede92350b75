import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Table } from './client.ts';

export async function describeTable(table: Table): Promise<void> {
  const result = await table.doc.send(new DescribeTableCommand({ TableName: table.tableName }));
  if (result.Table?.TableStatus !== 'ACTIVE' && result.Table?.TableStatus !== 'UPDATING')
    throw new Error('Table not active');
}
