import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The twin's Secrets Manager: the functions read the pseudonym key through the same client as in the cloud
 * (functions/adapters/secrets.ts, Powertools Parameters), pointed here by SECRETS_MANAGER_ENDPOINT. It holds the
 * secrets it is given (the key the twin keeps under its data folder) and answers GetSecretValue only.
 */
export type LocalSecret = { arn: string; name: string; value: string; createdAt: Date };

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A version id that stays the same for the same value (the twin keeps one version of each secret). */
function versionIdOf(secret: LocalSecret): string {
  const hex = createHash('sha256').update(secret.arn).update('\0').update(secret.value).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * GetSecretValue (JSON 1.1, `X-Amz-Target: secretsmanager.GetSecretValue`, body `{ SecretId }` naming the secret by
 * ARN or name; AWS Secrets Manager API reference, GetSecretValue): answers ARN, Name, SecretString, VersionId,
 * VersionStages and CreatedDate (epoch seconds), or ResourceNotFoundException for a secret it does not hold.
 */
export async function handleSecretsManager(
  req: IncomingMessage,
  res: ServerResponse,
  secrets: readonly LocalSecret[],
): Promise<void> {
  const body = await readBody(req);
  const answer = (status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(payload));
  };
  const refuse = (type: string, message: string) => answer(400, { __type: type, message });
  const target = req.headers['x-amz-target'];
  if (req.method !== 'POST' || target !== 'secretsmanager.GetSecretValue')
    return refuse('UnknownOperationException', 'The twin answers GetSecretValue only');
  let request: { SecretId?: unknown; VersionId?: unknown; VersionStage?: unknown };
  try {
    request = JSON.parse(body || '{}') as typeof request;
  } catch {
    return refuse('SerializationException', 'The request body is not JSON');
  }
  if (typeof request.SecretId !== 'string' || !request.SecretId)
    return refuse('InvalidParameterException', 'SecretId is required');
  const secret = secrets.find((s) => s.arn === request.SecretId || s.name === request.SecretId);
  if (!secret) return refuse('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
  const versionId = versionIdOf(secret);
  // One version, AWSCURRENT: asking for another is asking for one the secret does not have.
  if (
    (request.VersionId !== undefined && request.VersionId !== versionId) ||
    (request.VersionStage !== undefined && request.VersionStage !== 'AWSCURRENT')
  )
    return refuse('ResourceNotFoundException', "Secrets Manager can't find the specified secret value.");
  answer(200, {
    ARN: secret.arn,
    Name: secret.name,
    SecretString: secret.value,
    VersionId: versionId,
    VersionStages: ['AWSCURRENT'],
    CreatedDate: secret.createdAt.getTime() / 1000,
  });
}
