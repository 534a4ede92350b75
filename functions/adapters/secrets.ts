import { GetParameterError } from '@aws-lambda-powertools/parameters';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { prepareClient } from './aws-clients.ts';

/**
 * How long a container keeps the key before it reads it again, in seconds (the `maxAge` of Powertools Parameters;
 * its default is 5). The key is not rotated, since a new key gives every study new pseudonyms (docs/deployment.md#storage-and-encryption),
 * so an hour costs a warm container one GetSecretValue an hour.
 */
export const PSEUDONYM_SECRET_MAX_AGE_SECONDS = 3600;

/**
 * The pseudonym key (UID hashing, patient aliases): the Secrets Manager secret PSEUDONYM_SECRET_ARN names, read
 * through Powertools Parameters' SecretsProvider and kept for PSEUDONYM_SECRET_MAX_AGE_SECONDS. The client is made
 * through prepareClient (hooks and tracing, aws-clients.ts); SECRETS_MANAGER_ENDPOINT, where set, overrides the
 * region's endpoint. `secretArn` is read on first use, so a function without the grant fails then, naming the
 * variable.
 */
export function createSecretSource(
  options: { region: string; secretArn: () => string; endpoint?: string },
  client?: SecretsManagerClient,
): () => Promise<string> {
  let provider: SecretsProvider | undefined;
  // Calls while a read is under way share it: a cold container's first requests make one GetSecretValue, not many.
  let pending: Promise<string> | undefined;

  async function read(): Promise<string> {
    const secretArn = options.secretArn();
    provider ??= new SecretsProvider({
      awsSdkV3Client:
        client ??
        prepareClient(
          new SecretsManagerClient({
            region: options.region,
            ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          }),
        ),
    });
    let value: string | Uint8Array | undefined;
    try {
      value = await provider.get(secretArn, { maxAge: PSEUDONYM_SECRET_MAX_AGE_SECONDS });
    } catch (error) {
      // The provider wraps what the SDK threw; callers and logs see the AWS error itself, as from any other adapter.
      throw error instanceof GetParameterError && error.cause instanceof Error ? error.cause : error;
    }
    // An empty SecretString comes back as the (absent) SecretBinary; a binary secret is not a key either, and is not
    // kept, so the next call reads the secret again.
    if (typeof value !== 'string' || value === '') {
      provider.clearCache();
      throw new Error('The pseudonym secret is empty');
    }
    return value;
  }

  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}
