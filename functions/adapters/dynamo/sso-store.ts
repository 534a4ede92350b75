import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys, withoutKeys } from '#shared/definitions/table/keys.ts';
import type { SsoStore, StoredSso } from '#shared/domain/settings/ports.ts';
import type { Table } from './client.ts';
import { writeIfCondition } from './expressions.ts';

/**
 * Single sign-on configurations (docs/sso.md): one item under the hospital, plus one lookup item per e-mail domain
 * holding the hospital's id. A domain is claimed with a conditional put (absent, or already this hospital's), so two
 * hospitals never own the same domain; the claims come first, and nothing else is written when one fails.
 */
export function createSsoStore(table: Table): SsoStore {
  const { doc } = table;
  const get = async (hospitalId: string): Promise<StoredSso | undefined> => {
    const { Item } = await doc.send(
      new GetCommand({ TableName: table.tableName, Key: keys.sso(hospitalId), ConsistentRead: true }),
    );
    return Item ? (withoutKeys(Item) as StoredSso) : undefined;
  };
  const release = async (domains: readonly string[]) => {
    for (const domain of domains) {
      await doc.send(new DeleteCommand({ TableName: table.tableName, Key: keys.ssoDomain(domain) }));
    }
  };
  return {
    get,
    async save(hospitalId, sso) {
      const before = await get(hospitalId);
      const claimed: string[] = [];
      for (const domain of sso.domains) {
        const ok = await writeIfCondition(() =>
          doc.send(
            new PutCommand({
              TableName: table.tableName,
              Item: { ...keys.ssoDomain(domain), entity: 'ssoDomain', hospitalId },
              ConditionExpression: 'attribute_not_exists(pk) OR hospitalId = :hospitalId',
              ExpressionAttributeValues: { ':hospitalId': hospitalId },
            }),
          ),
        );
        if (!ok) {
          // Give back what this save claimed anew; domains the hospital held before stay its own.
          await release(claimed.filter((d) => !before?.domains.includes(d)));
          return { taken: domain };
        }
        claimed.push(domain);
      }
      await release((before?.domains ?? []).filter((d) => !sso.domains.includes(d)));
      await doc.send(
        new PutCommand({ TableName: table.tableName, Item: { ...keys.sso(hospitalId), entity: 'sso', ...sso } }),
      );
      return {};
    },
    async remove(hospitalId) {
      const before = await get(hospitalId);
      if (!before) return;
      await doc.send(new DeleteCommand({ TableName: table.tableName, Key: keys.sso(hospitalId) }));
      await release(before.domains);
    },
    async byDomain(domain) {
      const { Item } = await doc.send(new GetCommand({ TableName: table.tableName, Key: keys.ssoDomain(domain) }));
      if (!Item) return undefined;
      const hospitalId = String(Item.hospitalId);
      const sso = await get(hospitalId);
      return sso?.domains.includes(domain) ? { ...sso, hospitalId } : undefined;
    },
  };
}
