import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Provider from 'oidc-provider';

/**
 * A hospital's identity provider for the single-sign-on tests and for trying SSO by hand on the twin (`npm start --
 * --oidc-test-provider`, docs/local-twin.md#single-sign-on): the certified `oidc-provider` (OpenID Connect Core 1.0,
 * Discovery 1.0) on a port of this machine (a free one unless given), with one confidential client whose redirect URI
 * is the user pool's `/oauth2/idpresponse`, and its users. Its development login form takes any password for a user's
 * login; consent is granted without a page, as a hospital's provider for its own app does.
 */
export type TestOidcUser = {
  login: string;
  email: string;
  givenName: string;
  familyName: string;
  groups: string[];
};

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  user: TestOidcUser;
  close(): Promise<void>;
};

export const TEST_OIDC_USER: TestOidcUser = {
  login: 'r.okafor',
  email: 'r.okafor@sso.northside.example',
  givenName: 'Rita',
  familyName: 'Okafor',
  groups: ['radiology-leads', 'staff'],
};

/** A second user of the same domain, in no group the examples map (so the hospital's default member role). */
export const TEST_OIDC_MEMBER: TestOidcUser = {
  login: 'm.jensen',
  email: 'm.jensen@sso.northside.example',
  givenName: 'Mads',
  familyName: 'Jensen',
  groups: ['staff'],
};

export async function startTestOidcProvider(options: {
  /** The user pool's `/oauth2/idpresponse` (the twin's `<url>/_aws/cognito/oauth2/idpresponse`). */
  redirectUri: string;
  user?: TestOidcUser;
  /** Further users the provider knows (the login form's name picks one). */
  others?: TestOidcUser[];
  clientId?: string;
  clientSecret?: string;
  /** The port to listen on (the issuer's); a free one when absent. */
  port?: number;
  /** The interface to listen on: 127.0.0.1 unless given. */
  host?: string;
}): Promise<TestOidcProvider> {
  const user = options.user ?? TEST_OIDC_USER;
  const clientId = options.clientId ?? 'imaging-workspace';
  const clientSecret = options.clientSecret ?? 'northside-test-provider-secret';
  const scopes = 'openid email profile';
  // The port must be known for the issuer before the provider exists: listen first, attach the provider after.
  const { createServer } = await import('node:http');
  let callback: ((req: never, res: never) => void) | undefined;
  const server: Server = createServer((req, res) => callback?.(req as never, res as never));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'groups'],
    },
    // The account of the login form's name.
    async findAccount(_ctx, id) {
      const found = [user, ...(options.others ?? [])].find((u) => u.login === id);
      if (!found) return undefined;
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: found.email,
            email_verified: true,
            given_name: found.givenName,
            family_name: found.familyName,
            groups: found.groups,
          };
        },
      };
    },
    // Consent of the hospital's own app is implied (oidc-provider's "skip consent" recipe).
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope(scopes);
      await grant.save();
      return grant;
    },
    pkce: { required: () => false },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
  });
  // The login form is the library's development one: it logs a warning the test output does not need.
  provider.on('server_error', (_ctx, error) => process.stderr.write(`[test OIDC provider] ${error.message}\n`));
  callback = provider.callback() as never;
  return {
    issuer,
    clientId,
    clientSecret,
    user,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
