/**
 * aws-local-stepfunctions 3 targets Node 22: its Task timeouts call Promise.withResolvers, which Node 20 lacks.
 * Importing this module installs it where it is missing (the twin's pipeline worker and the tests that run the
 * executor in process).
 */
const promiseStatics = Promise as unknown as { withResolvers?: unknown };
promiseStatics.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

export {};
