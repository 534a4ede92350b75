import { tracer } from '#functions/lib/tracer.ts';

/**
 * Every AWS SDK client the adapters build passes through here, so a host can add middleware to all of them (for
 * instance a check of each command against the function's declared grants). Lambda registers no hook. Every client is
 * captured by the Tracer (functions/lib/tracer.ts): one X-Ray subsegment per call in Lambda, nothing elsewhere.
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
  return tracer.captureAWSv3Client(client);
}
