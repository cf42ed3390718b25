/**
 * Side-effect module: installs `Promise.withResolvers` (ES2024) when the runtime lacks it. Node 20 does;
 * aws-local-stepfunctions 3.0.0 calls it in every Task state (toolchain-notes.md §2). Import it once, before
 * running a state machine locally: `import './promise-with-resolvers';`. Idempotent; a no-op on Node 22+.
 */

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

type PromiseWithResolvers = PromiseConstructor & { withResolvers?: <T>() => Resolvers<T> };

const PromiseCtor = Promise as PromiseWithResolvers;

if (typeof PromiseCtor.withResolvers !== 'function') {
  Object.defineProperty(PromiseCtor, 'withResolvers', {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
