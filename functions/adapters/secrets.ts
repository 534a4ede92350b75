import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { prepareClient } from './aws-clients.ts';

/**
 * The pseudonym key (UID hashing, patient aliases): the key itself when PSEUDONYM_SECRET gives it, otherwise
 * the Secrets Manager secret PSEUDONYM_SECRET_ARN names, fetched once per container.
 */
export function createSecretSource(
  options: { region: string; secret?: string; secretArn?: string },
  client?: SecretsManagerClient,
): () => Promise<string> {
  let cached: Promise<string> | undefined;
  return () =>
    (cached ??= (async () => {
      if (options.secret) return options.secret;
      if (!options.secretArn) throw new Error('No pseudonym secret configured');
      const sm = client ?? prepareClient(new SecretsManagerClient({ region: options.region }));
      const result = await sm.send(new GetSecretValueCommand({ SecretId: options.secretArn }));
      if (!result.SecretString) throw new Error('The pseudonym secret is empty');
      return result.SecretString;
    })().catch((error: unknown) => {
      cached = undefined;
      throw error;
    }));
}
