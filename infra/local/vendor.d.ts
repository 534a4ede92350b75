// Minimal types for the stand-ins that ship none.
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class S3rver {
    constructor(options: {
      directory: string;
      silent?: boolean;
      configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
    });
    configureBuckets(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  }
}
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }): Server;
}
declare module 'oidc-provider' {
  /** What infra/local/oidc-test-provider.ts uses of oidc-provider (its own documentation, docs/README.md). */
  type Claims = Record<string, unknown> & { sub: string };
  type Account = { accountId: string; claims(): Promise<Claims> };
  type GrantInstance = { addOIDCScope(scope: string): void; save(): Promise<string> };
  type GrantClass = {
    new (init: { clientId: string; accountId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  };
  type Context = {
    oidc: {
      provider: { Grant: GrantClass };
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
    };
  };
  type Configuration = {
    clients: Record<string, unknown>[];
    claims: Record<string, string[]>;
    findAccount(ctx: Context, id: string): Promise<Account | undefined>;
    loadExistingGrant(ctx: Context): Promise<GrantInstance | undefined>;
    pkce: { required: () => boolean };
    features: Record<string, { enabled: boolean }>;
    cookies: { keys: string[] };
  };
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: unknown, res: unknown) => void;
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): this;
  }
}
