import { fork, type ChildProcess } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalJWKSet, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ROLES } from '#shared/vocabulary/roles.ts';
import type { DemoUser } from './seed/demo-data.ts';
import { ensureDir, persistedSecret, readJson, writeJson } from './data-dir.ts';
import { createHostedLogin, type FederationTriggers } from './hosted-login.ts';

/**
 * Cognito stand-in: cognito-local as a child process (its files under <data>/cognito/.cognito), reached through
 * /_aws/cognito on the public port. The proxy adds what cognito-local lacks: GetTokensFromRefreshToken (Amplify's
 * refresh) answered as InitiateAuth REFRESH_TOKEN_AUTH, a wrong password reported as Cognito reports it, a disabled
 * user's sign-in refused as Cognito refuses it, and UpdateUserPoolClient resetting the OAuth settings it is not given.
 */
const require = createRequire(import.meta.url);
const COGNITO_START = require.resolve('cognito-local/lib/bin/start.js');
/** Key modules cognito-local signs with and publishes; the child is handed this data folder's own pair in their place. */
const KEY_MODULES = {
  private: require.resolve('cognito-local/lib/keys/cognitoLocal.private.json'),
  public: require.resolve('cognito-local/lib/keys/cognitoLocal.public.json'),
};
const CHILD = fileURLToPath(new URL('./cognito-child.cjs', import.meta.url));
const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
/** The pool's custom attributes, as the cloud's (infra/stacks/auth-stack.ts CUSTOM_ATTRIBUTES). */
const CUSTOM_ATTRIBUTE_NAMES = ['hospitalId', 'teamId', 'idpAmr', 'idpGroups'];

export type PoolIds = { userPoolId: string; userPoolClientId: string };

export type CognitoService = {
  handle(req: IncomingMessage, res: ServerResponse, path: string): void;
  /** Creates the pool, app client and role groups once; later starts reuse the ids kept in the data folder. */
  bootstrap(): Promise<PoolIds>;
  ensureIdentity(ids: PoolIds, user: DemoUser, password: string): Promise<string>;
  /** The API's stand-in for the API Gateway Cognito authorizer: verified ID-token claims, or undefined. */
  verifyIdToken(ids: PoolIds, token: string): Promise<JWTPayload | undefined>;
  /** The same for an app client's access token (client-credentials grant): verified claims, or undefined. */
  verifyAccessToken(ids: PoolIds, token: string): Promise<JWTPayload | undefined>;
  /**
   * The pool's token endpoint (`/oauth2/token`: the client-credentials grant and the hosted login's
   * authorization-code grant), answered by the twin itself.
   */
  handleToken(ids: PoolIds | undefined, req: IncomingMessage, res: ServerResponse): void;
  /** The hosted login's federation path (`/oauth2/authorize`, `/oauth2/idpresponse`, docs/local-twin.md#single-sign-on). */
  handleHostedLogin(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  isAlive(): Promise<boolean>;
  close(): Promise<void>;
};

export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

type SigningKey = { jwk: Record<string, unknown>; pem: string };

/**
 * The pool's signing key, made once per data folder (mode 600). cognito-local signs with a key pair published in its
 * npm package: anyone could mint an ID token for any user and hospital that a verifier trusting that key accepts.
 */
export function signingKey(cognitoDir: string): SigningKey {
  const { value } = persistedSecret(cognitoDir, 'signing-key.json', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'CognitoLocal', alg: 'RS256', use: 'sig' };
    return JSON.stringify({ jwk, pem: privateKey.export({ format: 'pem', type: 'pkcs8' }) });
  });
  return JSON.parse(value) as SigningKey;
}

async function spawnCognitoLocal(
  cwd: string,
  port: number,
  keyFile: string,
  mailDir: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = fork(CHILD, [COGNITO_START], {
    cwd,
    execArgv: [],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_OPTIONS: '',
      NODE_NO_WARNINGS: '1',
      DEBUG: '',
      IWS_COGNITO_KEY_FILE: keyFile,
      IWS_COGNITO_PRIVATE_MODULE: KEY_MODULES.private,
      IWS_COGNITO_PUBLIC_MODULE: KEY_MODULES.public,
      // Codes Cognito would e-mail (a password reset) go to the twin's mail folder, shown on /_mail.
      IWS_MAIL_DIR: mailDir,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stderr?.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cognito-local did not start within 30 s: ${tail}`)), 30_000);
    const onData = (chunk: Buffer) => {
      keep(chunk);
      if (tail.includes('Cognito Local running on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData); // keeps draining after start, so the child never blocks on a full pipe
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cognito-local exited (${code}) during start: ${tail}`));
    });
  });
  return { child, output: () => tail };
}

/**
 * What the twin runs for the pool's pre- and post-authentication triggers (cognito-local has neither): the event as
 * Cognito sends it to the function of SIGN_IN_EVENTS_DECLARATION.
 */
export type SignInTrigger = (event: {
  version: '1';
  region: string;
  userPoolId: string;
  userName: string;
  triggerSource: 'PreAuthentication_Authentication' | 'PostAuthentication_Authentication';
  callerContext: { awsSdkVersion: string; clientId: string };
  request: { userAttributes: Record<string, string> };
  response: Record<string, never>;
}) => Promise<unknown>;

export async function startCognito(
  dataDir: string,
  issuerDomain: string,
  options: {
    signInTrigger?: () => SignInTrigger | undefined;
    /** The pool's pre-sign-up and post-confirmation triggers, run at a federated first sign-in. */
    federationTriggers?: () => FederationTriggers;
    region?: string;
    /** The site's addresses: the site app client's OAuth callbacks, as the cloud's client has them. */
    callbackUrls?: readonly string[];
  } = {},
): Promise<CognitoService> {
  const cwd = ensureDir(join(dataDir, 'cognito'));
  ensureDir(join(cwd, '.cognito'));
  // Tokens carry iss = <public URL>/_aws/cognito/<poolId>, the address a client reaches the pool at.
  writeJson(join(cwd, '.cognito', 'config.json'), { TokenConfig: { IssuerDomain: issuerDomain } });
  const port = await freePort();
  const key = signingKey(cwd);
  const { child } = await spawnCognitoLocal(cwd, port, join(cwd, 'signing-key.json'), ensureDir(join(dataDir, 'mail')));
  const upstream = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const jwks = createLocalJWKSet({ keys: [key.jwk as never] });

  async function call<T = Record<string, unknown>>(operation: string, body: unknown): Promise<T> {
    const response = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${TARGET_PREFIX}${operation}` },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const type = String(json.__type ?? json.code ?? `HTTP ${response.status}`)
        .split('#')
        .pop()!;
      throw new CognitoError(type, String(json.message ?? type));
    }
    return json as T;
  }

  async function ignoreExists(promise: Promise<unknown>, type: string): Promise<void> {
    try {
      await promise;
    } catch (error) {
      if (!(error instanceof CognitoError && error.type === type)) throw error;
    }
  }

  const idsPath = join(cwd, 'pool.json');
  const signer = createPrivateKey(key.pem);
  const hostedLogin = createHostedLogin({
    baseUrl: issuerDomain,
    region: options.region ?? 'us-east-1',
    ids: () => readJson<PoolIds>(idsPath),
    call,
    triggers: () => options.federationTriggers?.() ?? {},
  });

  /**
   * The client-credentials grant as Cognito's token endpoint answers it (RFC 6749 4.4): the app client authenticates
   * with HTTP Basic (or client_id and client_secret in the form), must allow the grant, and gets an access token for the
   * scopes it asked for among those it is allowed (all of them when it asked for none), valid for its access-token
   * validity. The token is signed with the pool's key, so the twin's authorizer checks it like an ID token.
   */
  async function issueClientToken(
    ids: PoolIds | undefined,
    req: IncomingMessage,
    text: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const invalidClient = { status: 401, body: { error: 'invalid_client' } };
    if (req.method !== 'POST' || !ids) return { status: 400, body: { error: 'invalid_request' } };
    const form = new URLSearchParams(text);
    const codeGrant = await hostedLogin.exchangeCode(req, form);
    if (codeGrant) return codeGrant;
    if (form.get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    let clientId = form.get('client_id') ?? '';
    let clientSecret = form.get('client_secret') ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, colon));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (!clientId || !clientSecret) return invalidClient;
    type AppClient = {
      ClientSecret?: string;
      AllowedOAuthFlowsUserPoolClient?: boolean;
      AllowedOAuthFlows?: string[];
      AllowedOAuthScopes?: string[];
      AccessTokenValidity?: number;
      TokenValidityUnits?: { AccessToken?: string };
    };
    let client: AppClient;
    try {
      client = (
        await call<{ UserPoolClient: AppClient }>('DescribeUserPoolClient', {
          UserPoolId: ids.userPoolId,
          ClientId: clientId,
        })
      ).UserPoolClient;
    } catch {
      return invalidClient;
    }
    const expected = Buffer.from(client.ClientSecret ?? '');
    const given = Buffer.from(clientSecret);
    if (expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given))
      return invalidClient;
    // A client with its OAuth settings off (a deactivated hospital's, docs/dicom-intake.md#deactivation) or without
    // this grant is not authorised to use it (RFC 6749 5.2).
    if (!client.AllowedOAuthFlowsUserPoolClient || !client.AllowedOAuthFlows?.includes('client_credentials'))
      return { status: 400, body: { error: 'unauthorized_client' } };
    const allowed = client.AllowedOAuthScopes ?? [];
    const asked = (form.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (asked.some((scope) => !allowed.includes(scope))) return { status: 400, body: { error: 'invalid_scope' } };
    const scopes = asked.length > 0 ? asked : allowed;
    const unit = client.TokenValidityUnits?.AccessToken ?? 'hours';
    const validity = client.AccessTokenValidity ?? 1;
    const seconds = validity * (unit === 'minutes' ? 60 : unit === 'seconds' ? 1 : unit === 'days' ? 86_400 : 3600);
    const token = await new SignJWT({
      client_id: clientId,
      token_use: 'access',
      scope: scopes.join(' '),
      auth_time: Math.floor(Date.now() / 1000),
      version: 2,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: 'RS256', kid: String(key.jwk.kid ?? 'CognitoLocal') })
      .setSubject(clientId)
      .setIssuer(`${issuerDomain}/${ids.userPoolId}`)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`)
      .sign(signer);
    return { status: 200, body: { access_token: token, expires_in: seconds, token_type: 'Bearer' } };
  }

  /**
   * Runs the sign-in trigger as the pool would: for a user it knows (Cognito calls no trigger for an unknown name),
   * with their attributes. A pre-authentication trigger that throws refuses the sign-in, as in Cognito (a password of
   * an "SSO only" domain, docs/sso.md#sso-only): its message comes back, Cognito's way. Counting never throws
   * (functions/triggers/sign-in-events.ts).
   */
  async function runSignInTrigger(phase: 'pre' | 'post', clientId: string, userName: string): Promise<string | void> {
    const trigger = options.signInTrigger?.();
    const ids = readJson<PoolIds>(idsPath);
    if (!trigger || !ids || ids.userPoolClientId !== clientId) return;
    let user: { Username?: string; UserAttributes?: { Name: string; Value: string }[] };
    try {
      user = await call('AdminGetUser', { UserPoolId: ids.userPoolId, Username: userName });
    } catch {
      // An unknown user: Cognito runs no trigger either, and the sign-in is answered as it stands.
      return;
    }
    try {
      await trigger({
        version: '1',
        region: options.region ?? 'us-east-1',
        userPoolId: ids.userPoolId,
        userName: user.Username ?? userName,
        triggerSource: phase === 'pre' ? 'PreAuthentication_Authentication' : 'PostAuthentication_Authentication',
        callerContext: { awsSdkVersion: 'twin', clientId },
        request: { userAttributes: Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name, a.Value])) },
        response: {},
      });
    } catch (error) {
      if (phase === 'pre') {
        const reason = error instanceof Error ? error.message : String(error);
        return `PreAuthentication failed with error ${reason}.`;
      }
    }
  }

  return {
    handle(req, res, path) {
      forward(upstream, req, res, path, runSignInTrigger);
    },

    async bootstrap() {
      let ids = readJson<PoolIds>(idsPath);
      if (ids) {
        const exists = await call('DescribeUserPool', { UserPoolId: ids.userPoolId }).then(
          () => true,
          () => false,
        );
        if (!exists) ids = undefined;
      }
      if (!ids) {
        const pool = await call<{ UserPool: { Id: string } }>('CreateUserPool', {
          PoolName: 'imaging-local',
          UsernameAttributes: ['email'],
          AutoVerifiedAttributes: ['email'],
          Schema: CUSTOM_ATTRIBUTE_NAMES.map((Name) => ({ Name, AttributeDataType: 'String', Mutable: true })),
        });
        const client = await call<{ UserPoolClient: { ClientId: string } }>('CreateUserPoolClient', {
          UserPoolId: pool.UserPool.Id,
          ClientName: 'imaging-web',
          ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        });
        ids = { userPoolId: pool.UserPool.Id, userPoolClientId: client.UserPoolClient.ClientId };
        writeJson(idsPath, ids);
      }
      // A pool of an earlier start lacks the attributes identity providers map (docs/sso.md#in-the-cloud).
      const { UserPool } = await call<{ UserPool: { SchemaAttributes?: { Name: string }[] } }>('DescribeUserPool', {
        UserPoolId: ids.userPoolId,
      });
      const missing = CUSTOM_ATTRIBUTE_NAMES.filter(
        (name) => !UserPool.SchemaAttributes?.some((a) => a.Name === `custom:${name}`),
      );
      if (missing.length > 0)
        await call('AddCustomAttributes', {
          UserPoolId: ids.userPoolId,
          CustomAttributes: missing.map((Name) => ({ Name, AttributeDataType: 'String', Mutable: true })),
        });
      // The site client's hosted login as the cloud's has it with a hosted-login domain (infra/stacks/auth-stack.ts):
      // the code flow, the OpenID scopes, the site as callback; the providers hospitals listed on it are kept.
      if (options.callbackUrls?.length) {
        const { UserPoolClient } = await call<{ UserPoolClient: { SupportedIdentityProviders?: string[] } }>(
          'DescribeUserPoolClient',
          { UserPoolId: ids.userPoolId, ClientId: ids.userPoolClientId },
        );
        await call('UpdateUserPoolClient', {
          ...UserPoolClient,
          UserPoolId: ids.userPoolId,
          ClientId: ids.userPoolClientId,
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthFlows: ['code'],
          AllowedOAuthScopes: ['openid', 'email', 'profile'],
          CallbackURLs: [...options.callbackUrls],
          LogoutURLs: [...options.callbackUrls],
          SupportedIdentityProviders: UserPoolClient.SupportedIdentityProviders?.length
            ? UserPoolClient.SupportedIdentityProviders
            : ['COGNITO'],
        });
      }
      // Two-factor as the cloud pool has it (infra/stacks/auth-stack.ts): optional, by authenticator app (TOTP).
      await call('SetUserPoolMfaConfig', {
        UserPoolId: ids.userPoolId,
        MfaConfiguration: 'OPTIONAL',
        SoftwareTokenMfaConfiguration: { Enabled: true },
      });
      for (const role of ROLES) {
        await ignoreExists(
          call('CreateGroup', { UserPoolId: ids.userPoolId, GroupName: role }),
          'GroupExistsException',
        );
      }
      return ids;
    },

    async ensureIdentity(ids, user, password) {
      const attributes = [
        { Name: 'email', Value: user.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'given_name', Value: user.firstName },
        { Name: 'family_name', Value: user.lastName },
        { Name: 'custom:hospitalId', Value: user.hospitalId },
        ...(user.teamId ? [{ Name: 'custom:teamId', Value: user.teamId }] : []),
      ];
      type UserShape = {
        Username: string;
        UserAttributes?: { Name: string; Value: string }[];
        User?: { Username: string; Attributes: { Name: string; Value: string }[] };
      };
      let existing: UserShape | undefined;
      try {
        existing = await call<UserShape>('AdminGetUser', { UserPoolId: ids.userPoolId, Username: user.email });
      } catch (error) {
        if (!(error instanceof CognitoError && error.type === 'UserNotFoundException')) throw error;
      }
      let username: string;
      let sub: string | undefined;
      if (existing) {
        username = existing.Username;
        sub = existing.UserAttributes?.find((a) => a.Name === 'sub')?.Value;
        await call('AdminUpdateUserAttributes', {
          UserPoolId: ids.userPoolId,
          Username: username,
          UserAttributes: attributes,
        });
      } else {
        const created = await call<UserShape>('AdminCreateUser', {
          UserPoolId: ids.userPoolId,
          Username: user.email,
          UserAttributes: attributes,
          MessageAction: 'SUPPRESS',
          TemporaryPassword: password,
        });
        username = created.User!.Username;
        sub = created.User!.Attributes.find((a) => a.Name === 'sub')?.Value;
      }
      // Set every start, so a changed DEMO_PASSWORD takes effect.
      await call('AdminSetUserPassword', {
        UserPoolId: ids.userPoolId,
        Username: username,
        Password: password,
        Permanent: true,
      });
      // AdminListGroupsForUser needs the real username (sub), not the e-mail, in cognito-local.
      const groups = await call<{ Groups: { GroupName: string }[] }>('AdminListGroupsForUser', {
        UserPoolId: ids.userPoolId,
        Username: username,
      });
      for (const group of groups.Groups) {
        if (group.GroupName !== user.role)
          await call('AdminRemoveUserFromGroup', {
            UserPoolId: ids.userPoolId,
            Username: username,
            GroupName: group.GroupName,
          });
      }
      if (!groups.Groups.some((g) => g.GroupName === user.role)) {
        await call('AdminAddUserToGroup', { UserPoolId: ids.userPoolId, Username: username, GroupName: user.role });
      }
      return sub ?? username;
    },

    async verifyIdToken(ids, token) {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: `${issuerDomain}/${ids.userPoolId}`,
          audience: ids.userPoolClientId,
          algorithms: ['RS256'],
        });
        return payload.token_use === 'id' ? payload : undefined;
      } catch {
        return undefined;
      }
    },

    async verifyAccessToken(ids, token) {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer: `${issuerDomain}/${ids.userPoolId}`,
          algorithms: ['RS256'],
        });
        return payload.token_use === 'access' && typeof payload.client_id === 'string' ? payload : undefined;
      } catch {
        return undefined;
      }
    },

    handleHostedLogin(req, res, path) {
      const route = path.split('?')[0];
      if (req.method !== 'GET') return false;
      if (route === '/oauth2/authorize') hostedLogin.authorize(req, res);
      else if (route === '/oauth2/idpresponse') hostedLogin.idpResponse(req, res);
      else if (route === '/logout') hostedLogin.logout(req, res);
      else return false;
      return true;
    },

    handleToken(ids, req, res) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        issueClientToken(ids, req, Buffer.concat(chunks).toString('utf8'))
          .then(({ status, body }) => {
            // The site exchanges its code from the browser (the hosted login is another origin), so the answer
            // carries CORS headers for the caller, as Cognito's token endpoint does.
            const origin = req.headers.origin;
            res.writeHead(status, {
              'content-type': 'application/json',
              'cache-control': 'no-store',
              ...(origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}),
            });
            res.end(JSON.stringify(body));
          })
          .catch(() => {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: 'server_error' }));
          });
      });
    },

    async isAlive() {
      if (exited) return false;
      return fetch(`${upstream}/health`).then(
        (r) => r.ok,
        () => false,
      );
    },

    async close() {
      if (exited) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
        }, 3000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    },
  };
}

/** Whether the tokens of an answer were issued to a user the pool has disabled (asked of cognito-local itself). */
async function issuedToDisabledUser(
  upstream: string,
  path: string,
  headers: Record<string, string>,
  responseBody: Buffer,
): Promise<boolean> {
  try {
    const answer = JSON.parse(responseBody.toString()) as { AuthenticationResult?: { IdToken?: string } };
    const idToken = answer.AuthenticationResult?.IdToken;
    if (!idToken) return false;
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: string;
      iss?: string;
    };
    const userPoolId = claims.iss?.split('/').pop();
    if (!claims.sub || !userPoolId) return false;
    const response = await fetch(`${upstream}${path}`, {
      method: 'POST',
      headers: { ...headers, 'x-amz-target': `${TARGET_PREFIX}AdminGetUser` },
      body: JSON.stringify({ UserPoolId: userPoolId, Username: claims.sub }),
    });
    if (!response.ok) return false;
    return ((await response.json()) as { Enabled?: boolean }).Enabled === false;
  } catch {
    return false;
  }
}

/** The user of a password sign-in (`first`) or of the answer to its challenge (second factor, new password). */
function signInOf(target: string, body: Buffer): { clientId: string; userName: string; first: boolean } | undefined {
  const first = target.endsWith('.InitiateAuth');
  if (!first && !target.endsWith('.RespondToAuthChallenge')) return undefined;
  try {
    const request = JSON.parse(body.toString() || '{}') as {
      AuthFlow?: string;
      ClientId?: string;
      AuthParameters?: { USERNAME?: string };
      ChallengeResponses?: { USERNAME?: string };
    };
    const userName = first ? request.AuthParameters?.USERNAME : request.ChallengeResponses?.USERNAME;
    if (first && request.AuthFlow !== 'USER_PASSWORD_AUTH') return undefined;
    return request.ClientId && userName ? { clientId: request.ClientId, userName, first } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * UpdateUserPoolClient as Cognito applies it: a setting the request leaves out goes back to its default (Amazon
 * Cognito API reference, UpdateUserPoolClient), where cognito-local keeps the stored value. The OAuth settings are
 * filled in here with their defaults (off, none), so an update that leaves them out turns the client's grants off
 * in the twin as in the cloud.
 */
export function withOAuthDefaults(body: Buffer): Buffer {
  try {
    const request = JSON.parse(body.toString() || '{}') as Record<string, unknown>;
    return Buffer.from(
      JSON.stringify({
        ...request,
        AllowedOAuthFlowsUserPoolClient: request.AllowedOAuthFlowsUserPoolClient ?? false,
        AllowedOAuthFlows: request.AllowedOAuthFlows ?? [],
        AllowedOAuthScopes: request.AllowedOAuthScopes ?? [],
        CallbackURLs: request.CallbackURLs ?? [],
        LogoutURLs: request.LogoutURLs ?? [],
      }),
    );
  } catch {
    return body;
  }
}

/** Proxies one request to cognito-local, rewriting what it gets wrong for our clients (see issuedToDisabledUser). */
function forward(
  upstream: string,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  signInTrigger: (phase: 'pre' | 'post', clientId: string, userName: string) => Promise<string | void>,
): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    let body: Buffer = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
    }
    const target = headers['x-amz-target'] ?? '';
    if (target.endsWith('.GetTokensFromRefreshToken')) {
      const parsed = JSON.parse(body.toString() || '{}') as { ClientId?: string; RefreshToken?: string };
      headers['x-amz-target'] = `${TARGET_PREFIX}InitiateAuth`;
      body = Buffer.from(
        JSON.stringify({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: parsed.ClientId,
          AuthParameters: { REFRESH_TOKEN: parsed.RefreshToken },
        }),
      );
    }
    if (target.endsWith('.UpdateUserPoolClient')) body = withOAuthDefaults(body);
    // A password sign-in or its second step: the pool's pre-authentication trigger runs before the password is
    // checked, post-authentication once tokens are issued (refreshes run neither).
    const signIn = signInOf(target, body);
    if (signIn?.first) {
      const refused = await signInTrigger('pre', signIn.clientId, signIn.userName);
      if (refused) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'UserLambdaValidationException', message: refused }));
        return;
      }
    }
    const upstreamReq = request(
      `${upstream}${path}`,
      { method: req.method, headers: { ...headers, 'content-length': String(body.length) } },
      (upstreamRes) => {
        const out: Buffer[] = [];
        upstreamRes.on('data', (c: Buffer) => out.push(c));
        upstreamRes.on('end', async () => {
          let responseBody = Buffer.concat(out);
          let status = upstreamRes.statusCode ?? 502;
          // Real Cognito refuses a disabled user's sign-in and refresh; cognito-local issues tokens anyway.
          if (/\.(InitiateAuth|RespondToAuthChallenge|AdminInitiateAuth)$/.test(target) && status === 200) {
            if (await issuedToDisabledUser(upstream, path, headers, responseBody)) {
              responseBody = Buffer.from(
                JSON.stringify({ __type: 'NotAuthorizedException', message: 'User is disabled.' }),
              );
              status = 400;
            }
          }
          // Real Cognito answers a wrong password with NotAuthorizedException; cognito-local says InvalidPasswordException.
          if (target.endsWith('.InitiateAuth') && status === 400 && responseBody.includes('InvalidPasswordException')) {
            responseBody = Buffer.from(
              JSON.stringify({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' }),
            );
            status = 400;
          }
          if (signIn && status === 200 && responseBody.includes('"AuthenticationResult"'))
            await signInTrigger('post', signIn.clientId, signIn.userName);
          const responseHeaders: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(upstreamRes.headers)) {
            if (
              value !== undefined &&
              !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name)
            )
              responseHeaders[name] = value;
          }
          responseHeaders['content-length'] = String(responseBody.length);
          res.writeHead(status, responseHeaders);
          res.end(responseBody);
        });
      },
    );
    upstreamReq.on('error', () => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ __type: 'ServiceUnavailable', message: 'The local identity service is not running.' }));
    });
    upstreamReq.end(body);
  });
}
