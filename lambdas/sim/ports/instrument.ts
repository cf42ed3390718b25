import { ClmError, KubeApiError, ThrottledError, TransientApiError } from '../../shared/errors';
import { settle } from '../engine';
import type { SimContext } from '../sim-context';
import { NO_CLUSTER } from '../world-shards';

/**
 * Every simulated port method goes through here: the call is counted (`apiCalls()`), scenario faults for
 * `<port>.<method>` may throw instead, and after the call the world's controllers settle.
 */

/** The port with synchronous methods: the simulator's implementations compute their answer at once. */
export type SyncPort<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

function faultError(name: string, kind: 'throttle' | 'transient' | 'fatal'): Error {
  const message = `simulated ${kind} error on ${name}`;
  if (kind === 'throttle') return new ThrottledError(`Rate exceeded (${message})`);
  if (kind === 'transient') return new TransientApiError(message);
  return name.startsWith('kube.') ? new KubeApiError(message) : new ClmError(message);
}

/** Throw the scenario fault due for this call, if any. */
export function checkFaults(ctx: SimContext, name: string, clusterId: string | undefined): void {
  const faults = ctx.state.scenario.faults.apiErrors;
  const uses = ctx.state.faultUses.apiErrors;
  for (let i = 0; i < faults.length; i += 1) {
    const fault = faults[i];
    if (fault.on !== name || (fault.cluster && fault.cluster !== clusterId)) continue;
    const use = (uses[i] ??= { seen: 0, thrown: 0 });
    use.seen += 1;
    if (use.seen > fault.after && use.thrown < fault.times) {
      use.thrown += 1;
      throw faultError(name, fault.error);
    }
  }
}

export function instrument<T extends object>(
  ctx: SimContext,
  port: string,
  clusterId: string | undefined,
  impl: SyncPort<T>,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(impl as Record<string, unknown>)) {
    if (typeof fn !== 'function') {
      wrapped[method] = fn;
      continue;
    }
    const name = `${port}.${method}`;
    wrapped[method] = (...args: unknown[]): Promise<unknown> => {
      ctx.state.apiCalls[name] = (ctx.state.apiCalls[name] ?? 0) + 1;
      // Artefacts are kept apart from the world's shards (persistence.ts); every other port acts on a shard.
      if (port !== 'artifacts') ctx.acted.add(clusterId ?? NO_CLUSTER);
      try {
        checkFaults(ctx, name, clusterId);
        const result: unknown = (fn as (...a: unknown[]) => unknown)(...args);
        settle(ctx);
        return Promise.resolve(result);
      } catch (error) {
        settle(ctx);
        return Promise.reject(error);
      }
    };
  }
  return wrapped as T;
}
