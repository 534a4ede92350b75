import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/**
 * The hosted login's federation path of the Cognito stand-in (docs/local-twin.md#single-sign-on), as Cognito's OAuth
 * 2.0 endpoints behave for an OpenID Connect identity provider (Amazon Cognito developer guide, "User pool endpoints
 * reference" and "Adding OIDC identity providers to a user pool"):
 *
 * - `GET /oauth2/authorize?identity_provider=…` sends the browser to the provider's authorization endpoint
 *   (OpenID Connect Discovery 1.0 from its issuer) with the provider's client id and `/oauth2/idpresponse` as its
 *   redirect URI;
 * - `GET /oauth2/idpresponse` exchanges the provider's code at its token endpoint (client secret, HTTP Basic), verifies
 *   the ID token against the provider's key set (issuer, audience, expiry, nonce), reads its user info, maps the claims
 *   onto pool attributes with the provider's attribute mapping, creates a new user through the pool's pre-sign-up and
 *   post-confirmation triggers, runs the pre-token-generation trigger (which may refuse the sign-in or move the user's
 *   role group), and sends the browser back to the app client's callback with a code of ours;
 * - `POST /oauth2/token` (grant_type=authorization_code) exchanges that code, once, for the user's ID, access and
 *   refresh tokens, checking the client, the redirect URI and the PKCE verifier (RFC 7636).
 */

type PoolIds = { userPoolId: string; userPoolClientId: string };
type Attribute = { Name: string; Value: string };

export type FederationTriggerEvent = {
  version: '1';
  region: string;
  userPoolId: string;
  userName: string;
  triggerSource: 'PreSignUp_ExternalProvider' | 'PostConfirmation_ConfirmSignUp' | 'TokenGeneration_HostedAuth';
  callerContext: { awsSdkVersion: string; clientId: string };
  request: { userAttributes: Record<string, string>; groupConfiguration?: { groupsToOverride: string[] } };
  response: Record<string, unknown>;
};

/**
 * The pool's pre-sign-up and post-confirmation triggers, as the pool invokes them, and its pre-token-generation
 * trigger, run before the tokens of every federated sign-in (docs/sso.md#later-sign-ins).
 */
export type FederationTriggers = {
  preSignUp?: (event: FederationTriggerEvent) => Promise<unknown>;
  postConfirmation?: (event: FederationTriggerEvent) => Promise<unknown>;
  preTokenGeneration?: (event: FederationTriggerEvent) => Promise<unknown>;
};

type AppClient = {
  ClientId?: string;
  ClientSecret?: string;
  AllowedOAuthFlowsUserPoolClient?: boolean;
  AllowedOAuthFlows?: string[];
  CallbackURLs?: string[];
  LogoutURLs?: string[];
  SupportedIdentityProviders?: string[];
};

type Pending = {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  providerName: string;
  nonce: string;
  expires: number;
};

type Issued = {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  tokens: { IdToken: string; AccessToken: string; RefreshToken: string; ExpiresIn?: number };
  expires: number;
};

/** A sign-in through the provider must come back, and our code be exchanged, within five minutes (as Cognito's). */
const LIFETIME_MS = 5 * 60_000;

export type HostedLogin = {
  authorize(req: IncomingMessage, res: ServerResponse): void;
  idpResponse(req: IncomingMessage, res: ServerResponse): void;
  /** `GET /logout?client_id&logout_uri`: back to one of the client's sign-out URLs (the hosted login keeps no session). */
  logout(req: IncomingMessage, res: ServerResponse): void;
  /** The authorization-code grant of `/oauth2/token`; undefined when the form asks for another grant. */
  exchangeCode(
    req: IncomingMessage,
    form: URLSearchParams,
  ): Promise<{ status: number; body: Record<string, unknown> } | undefined>;
};

export function createHostedLogin(deps: {
  /** Where the browser reaches the stand-in (`<public URL>/_aws/cognito`). */
  baseUrl: string;
  region: string;
  ids: () => PoolIds | undefined;
  call: <T = Record<string, unknown>>(operation: string, body: unknown) => Promise<T>;
  triggers: () => FederationTriggers;
}): HostedLogin {
  const pending = new Map<string, Pending>();
  const issued = new Map<string, Issued>();
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  const redirectUriOfProvider = `${deps.baseUrl}/oauth2/idpresponse`;

  const sweep = (now: number) => {
    for (const [key, value] of pending) if (value.expires < now) pending.delete(key);
    for (const [key, value] of issued) if (value.expires < now) issued.delete(key);
  };

  const send = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };
  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(302, { location, 'cache-control': 'no-store' });
    res.end();
  };
  /** Errors after the client is known go back to its callback, as RFC 6749 4.1.2.1 has it. */
  const redirectError = (res: ServerResponse, to: Pick<Pending, 'redirectUri' | 'state'>, description: string) => {
    const url = new URL(to.redirectUri);
    url.searchParams.set('error_description', description);
    url.searchParams.set('error', 'invalid_request');
    if (to.state !== undefined) url.searchParams.set('state', to.state);
    redirect(res, url.toString());
  };

  async function appClient(ids: PoolIds, clientId: string): Promise<AppClient | undefined> {
    try {
      return (
        await deps.call<{ UserPoolClient: AppClient }>('DescribeUserPoolClient', {
          UserPoolId: ids.userPoolId,
          ClientId: clientId,
        })
      ).UserPoolClient;
    } catch {
      return undefined;
    }
  }

  type Provider = {
    ProviderName: string;
    ProviderDetails: Record<string, string>;
    AttributeMapping: Record<string, string>;
  };
  async function provider(ids: PoolIds, name: string): Promise<Provider | undefined> {
    try {
      return (
        await deps.call<{ IdentityProvider: Provider }>('DescribeIdentityProvider', {
          UserPoolId: ids.userPoolId,
          ProviderName: name,
        })
      ).IdentityProvider;
    } catch {
      return undefined;
    }
  }

  type Discovery = {
    issuer: string;
    authorization_endpoint: string;
    token_endpoint: string;
    jwks_uri: string;
    userinfo_endpoint?: string;
  };
  async function discover(issuer: string): Promise<Discovery> {
    const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`the provider's discovery document answered ${response.status}`);
    const document = (await response.json()) as Discovery;
    if (document.issuer !== issuer) throw new Error('the discovery document names another issuer');
    return document;
  }

  async function authorize(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
    const ids = deps.ids();
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    const client = ids ? await appClient(ids, clientId) : undefined;
    // An unknown client or a callback it does not list: never redirected anywhere (RFC 6749 4.1.2.1).
    if (!ids || !client) return send(res, 400, 'invalid_request: unknown client');
    if (!client.CallbackURLs?.includes(redirectUri)) return send(res, 400, 'redirect_mismatch');
    const state = query.get('state') ?? undefined;
    const back = { redirectUri, state };
    if (query.get('response_type') !== 'code' || !client.AllowedOAuthFlows?.includes('code'))
      return redirectError(res, back, 'unauthorized_client');
    const providerName = query.get('identity_provider') ?? '';
    if (!client.SupportedIdentityProviders?.includes(providerName))
      return redirectError(res, back, 'The identity provider is not enabled for this client.');
    const idp = ids ? await provider(ids, providerName) : undefined;
    // A hospital's SAML provider is kept as Cognito keeps it, but the stand-in runs no SAML exchange
    // (docs/sso.md#saml-providers): it says so rather than that the provider is missing.
    if (idp && (idp.ProviderDetails.MetadataURL || idp.ProviderDetails.MetadataFile))
      return redirectError(res, back, "The local twin's hosted login signs in through OpenID Connect providers only.");
    if (!idp?.ProviderDetails.oidc_issuer) return redirectError(res, back, 'The identity provider does not exist.');
    const method = query.get('code_challenge_method') ?? undefined;
    if (method !== undefined && method !== 'S256') return redirectError(res, back, 'invalid code_challenge_method');
    let discovery: Discovery;
    try {
      discovery = await discover(idp.ProviderDetails.oidc_issuer);
    } catch (error) {
      return redirectError(res, back, `The identity provider could not be reached: ${(error as Error).message}`);
    }
    const now = Date.now();
    sweep(now);
    const ours = randomBytes(24).toString('base64url');
    const nonce = randomBytes(24).toString('base64url');
    pending.set(ours, {
      clientId,
      redirectUri,
      state,
      codeChallenge: query.get('code_challenge') ?? undefined,
      codeChallengeMethod: method,
      providerName,
      nonce,
      expires: now + LIFETIME_MS,
    });
    const to = new URL(discovery.authorization_endpoint);
    to.searchParams.set('client_id', idp.ProviderDetails.client_id ?? '');
    to.searchParams.set('response_type', 'code');
    to.searchParams.set('scope', idp.ProviderDetails.authorize_scopes ?? 'openid');
    to.searchParams.set('redirect_uri', redirectUriOfProvider);
    to.searchParams.set('state', ours);
    to.searchParams.set('nonce', nonce);
    redirect(res, to.toString());
  }

  /** The provider's claims as pool attributes, by the provider's attribute mapping; lists in the pool's `[a, b]` form. */
  function mapped(claims: JWTPayload, mapping: Record<string, string>): Attribute[] {
    const out: Attribute[] = [];
    for (const [attribute, claim] of Object.entries(mapping)) {
      const value = claims[claim];
      if (value === undefined || value === null) continue;
      out.push({
        Name: attribute,
        Value: Array.isArray(value)
          ? `[${value.map(String).join(', ')}]`
          : typeof value === 'object'
            ? JSON.stringify(value)
            : String(value),
      });
    }
    return out;
  }

  async function providerClaims(idp: Provider, code: string, nonce: string): Promise<JWTPayload> {
    const issuer = idp.ProviderDetails.oidc_issuer!;
    const clientId = idp.ProviderDetails.client_id ?? '';
    const discovery = await discover(issuer);
    const basic = Buffer.from(
      `${encodeURIComponent(clientId)}:${encodeURIComponent(idp.ProviderDetails.client_secret ?? '')}`,
    ).toString('base64');
    const response = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUriOfProvider }),
    });
    const answer = (await response.json().catch(() => ({}))) as {
      id_token?: string;
      access_token?: string;
      error?: string;
    };
    if (!response.ok || !answer.id_token) throw new Error(`the provider's token endpoint answered ${answer.error}`);
    let keys = keySets.get(discovery.jwks_uri);
    if (!keys) keySets.set(discovery.jwks_uri, (keys = createRemoteJWKSet(new URL(discovery.jwks_uri))));
    const { payload } = await jwtVerify(answer.id_token, keys, { issuer, audience: clientId });
    if (payload.nonce !== nonce) throw new Error('the ID token carries another nonce');
    if (!payload.sub) throw new Error('the ID token names no subject');
    // attributes_request_method GET: the user info endpoint's claims too (OpenID Connect Core 1.0, 5.3).
    if (discovery.userinfo_endpoint && answer.access_token) {
      const info = await fetch(discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${answer.access_token}` },
      });
      if (info.ok) {
        const claims = (await info.json()) as JWTPayload;
        if (claims.sub === payload.sub) return { ...claims, ...payload };
      }
    }
    return payload;
  }

  type PoolUser = { Username: string; Enabled?: boolean; UserAttributes?: Attribute[] };
  async function existingUser(ids: PoolIds, userName: string): Promise<PoolUser | undefined> {
    try {
      return await deps.call<PoolUser>('AdminGetUser', { UserPoolId: ids.userPoolId, Username: userName });
    } catch {
      return undefined;
    }
  }

  /** A new user as Cognito makes one at a federated first sign-in: pre-sign-up, the user, post-confirmation. */
  async function signUp(ids: PoolIds, clientId: string, userName: string, attributes: Attribute[], sub: string) {
    const triggers = deps.triggers();
    const asRecord = (list: Attribute[]) => Object.fromEntries(list.map((a) => [a.Name, a.Value]));
    const identities = JSON.stringify([
      {
        userId: sub,
        providerName: userName.slice(0, userName.indexOf('_')),
        providerType: 'OIDC',
        issuer: null,
        primary: true,
        dateCreated: Date.now(),
      },
    ]);
    const event = (triggerSource: FederationTriggerEvent['triggerSource'], userAttributes: Record<string, string>) => ({
      version: '1' as const,
      region: deps.region,
      userPoolId: ids.userPoolId,
      userName,
      triggerSource,
      callerContext: { awsSdkVersion: 'twin', clientId },
      request: { userAttributes },
      response: {},
    });
    const before = (await refusedAs('PreSignUp', () =>
      triggers.preSignUp?.(event('PreSignUp_ExternalProvider', asRecord(attributes))),
    )) as { response?: { autoVerifyEmail?: boolean } } | undefined;
    const verified = before?.response?.autoVerifyEmail ? [{ Name: 'email_verified', Value: 'true' }] : [];
    await deps.call('IwsAdminCreateExternalUser', {
      UserPoolId: ids.userPoolId,
      Username: userName,
      UserAttributes: [...attributes, ...verified, { Name: 'identities', Value: identities }],
    });
    const created = await existingUser(ids, userName);
    await refusedAs('PostConfirmation', () =>
      triggers.postConfirmation?.(event('PostConfirmation_ConfirmSignUp', asRecord(created?.UserAttributes ?? []))),
    );
  }

  async function preTokenGeneration(ids: PoolIds, clientId: string, userName: string): Promise<void> {
    const trigger = deps.triggers().preTokenGeneration;
    if (!trigger) return;
    const user = await existingUser(ids, userName);
    const groups = await deps
      .call<{ Groups?: { GroupName: string }[] }>('AdminListGroupsForUser', {
        UserPoolId: ids.userPoolId,
        Username: userName,
      })
      .then((answer) => (answer.Groups ?? []).map((g) => g.GroupName))
      .catch(() => []);
    await refusedAs('PreTokenGeneration', () =>
      trigger({
        version: '1',
        region: deps.region,
        userPoolId: ids.userPoolId,
        userName,
        triggerSource: 'TokenGeneration_HostedAuth',
        callerContext: { awsSdkVersion: 'twin', clientId },
        request: {
          userAttributes: Object.fromEntries((user?.UserAttributes ?? []).map((a) => [a.Name, a.Value])),
          groupConfiguration: { groupsToOverride: groups },
        },
        response: {},
      }),
    );
  }

  /**
   * The pool's tokens for the user: cognito-local issues them only to a password sign-in, so the stand-in gives the
   * federated user a fresh random password it never reveals and signs in with it, straight at cognito-local, so the
   * password sign-in's triggers do not run for it.
   */
  async function tokensFor(clientId: string, ids: PoolIds, userName: string): Promise<Issued['tokens']> {
    const password = `${randomBytes(24).toString('base64url')}aA1!`;
    await deps.call('AdminSetUserPassword', {
      UserPoolId: ids.userPoolId,
      Username: userName,
      Password: password,
      Permanent: true,
    });
    const answer = await deps.call<{ AuthenticationResult?: Issued['tokens'] }>('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: userName, PASSWORD: password },
    });
    if (!answer.AuthenticationResult) throw new Error('the pool asked for another sign-in step');
    return answer.AuthenticationResult;
  }

  async function idpResponse(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
    const now = Date.now();
    sweep(now);
    const key = query.get('state') ?? '';
    const signIn = pending.get(key);
    pending.delete(key);
    const ids = deps.ids();
    if (!signIn || !ids) return send(res, 400, 'invalid_request: unknown or expired sign-in');
    const code = query.get('code');
    if (!code) return redirectError(res, signIn, query.get('error_description') ?? query.get('error') ?? 'no code');
    const idp = await provider(ids, signIn.providerName);
    if (!idp) return redirectError(res, signIn, 'The identity provider does not exist.');
    let claims: JWTPayload;
    try {
      claims = await providerClaims(idp, code, signIn.nonce);
    } catch (error) {
      return redirectError(res, signIn, `Invalid identity provider response: ${(error as Error).message}`);
    }
    const userName = `${idp.ProviderName}_${claims.sub}`;
    const attributes = mapped(claims, idp.AttributeMapping);
    try {
      const user = await existingUser(ids, userName);
      if (user?.Enabled === false) return redirectError(res, signIn, 'User is disabled.');
      if (user) {
        // Cognito writes the mapped attributes again at every federated sign-in.
        await deps.call('AdminUpdateUserAttributes', {
          UserPoolId: ids.userPoolId,
          Username: userName,
          UserAttributes: attributes,
        });
      } else {
        await signUp(ids, signIn.clientId, userName, attributes, String(claims.sub));
      }
    } catch (error) {
      // A trigger's refusal comes back as Cognito words it: "PreSignUp failed with error <its message>.".
      if (error instanceof TriggerRefusal) return redirectError(res, signIn, error.message);
      throw error;
    }
    // The pool's pre-token-generation trigger: it may refuse the sign-in (a disabled user) or move the user's role
    // group, which the tokens cognito-local then issues carry.
    try {
      await preTokenGeneration(ids, signIn.clientId, userName);
    } catch (error) {
      if (error instanceof TriggerRefusal) return redirectError(res, signIn, error.message);
      throw error;
    }
    const tokens = await tokensFor(signIn.clientId, ids, userName);
    const ours = randomBytes(24).toString('base64url');
    issued.set(ours, {
      clientId: signIn.clientId,
      redirectUri: signIn.redirectUri,
      codeChallenge: signIn.codeChallenge,
      codeChallengeMethod: signIn.codeChallengeMethod,
      tokens,
      expires: now + LIFETIME_MS,
    });
    const back = new URL(signIn.redirectUri);
    back.searchParams.set('code', ours);
    if (signIn.state !== undefined) back.searchParams.set('state', signIn.state);
    redirect(res, back.toString());
  }

  async function exchangeCode(req: IncomingMessage, form: URLSearchParams) {
    if (form.get('grant_type') !== 'authorization_code') return undefined;
    const invalidGrant = { status: 400, body: { error: 'invalid_grant' } };
    const ids = deps.ids();
    let clientId = form.get('client_id') ?? '';
    let clientSecret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, colon));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1));
    }
    const client = ids ? await appClient(ids, clientId) : undefined;
    if (!client) return { status: 401, body: { error: 'invalid_client' } };
    if (client.ClientSecret) {
      const expected = Buffer.from(client.ClientSecret);
      const given = Buffer.from(clientSecret ?? '');
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        return { status: 401, body: { error: 'invalid_client' } };
    }
    const code = form.get('code') ?? '';
    const grant = issued.get(code);
    issued.delete(code); // once only, right or wrong (RFC 6749 4.1.2)
    if (!grant || grant.expires < Date.now() || grant.clientId !== clientId) return invalidGrant;
    if (form.get('redirect_uri') !== grant.redirectUri) return invalidGrant;
    if (grant.codeChallenge !== undefined) {
      const verifier = form.get('code_verifier') ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (computed !== grant.codeChallenge) return invalidGrant;
    }
    return {
      status: 200,
      body: {
        id_token: grant.tokens.IdToken,
        access_token: grant.tokens.AccessToken,
        refresh_token: grant.tokens.RefreshToken,
        expires_in: grant.tokens.ExpiresIn ?? 3600,
        token_type: 'Bearer',
      },
    };
  }

  const guarded = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => {
    return (req: IncomingMessage, res: ServerResponse) => {
      handler(req, res).catch((error: unknown) => {
        if (!res.headersSent) send(res, 500, `server_error: ${(error as Error).message}`);
      });
    };
  };

  async function logout(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://stand-in').searchParams;
    const ids = deps.ids();
    const client = ids ? await appClient(ids, query.get('client_id') ?? '') : undefined;
    const to = query.get('logout_uri') ?? '';
    if (!client?.LogoutURLs?.includes(to)) return send(res, 400, 'invalid_request: unknown client or logout_uri');
    redirect(res, to);
  }

  return { authorize: guarded(authorize), idpResponse: guarded(idpResponse), logout: guarded(logout), exchangeCode };
}

/** A trigger that throws refuses the sign-up; Cognito names the trigger and gives its message. */
class TriggerRefusal extends Error {}

async function refusedAs<T>(
  phase: 'PreSignUp' | 'PostConfirmation' | 'PreTokenGeneration',
  run: () => Promise<T> | undefined,
) {
  try {
    return await run();
  } catch (error) {
    throw new TriggerRefusal(`${phase} failed with error ${error instanceof Error ? error.message : String(error)}.`);
  }
}
