/**
 * Every AWS SDK client the adapters build passes through here, so a host can add middleware to all of them (for
 * instance a check of each command against the function's declared grants). Lambda registers no hook: the clients
 * are left as built.
 */
export type ClientWithMiddleware = {
  middlewareStack: { add(middleware: never, options: { step: 'initialize'; name: string; priority?: 'high' }): void };
};

export type ClientHook = (client: ClientWithMiddleware) => void;

const hooks: ClientHook[] = [];

export function registerClientHook(hook: ClientHook): void {
  hooks.push(hook);
}

export function prepareClient<C extends ClientWithMiddleware>(client: C): C {
  for (const hook of hooks) hook(client);
  return client;
}
