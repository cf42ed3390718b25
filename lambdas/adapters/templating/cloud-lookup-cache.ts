/**
 * Bridges the synchronous handlebars helpers and the asynchronous CloudLookups port. A helper asks for a value;
 * if the engine has it, the helper uses it; otherwise the request is recorded for this pass and the helper
 * returns a placeholder. After the pass the engine awaits every recorded request (one port call per distinct
 * key, shared by concurrent renders) and renders again. Successes are cached for the engine's lifetime;
 * failures only for the render that saw them, so a transient error is retried by the next render. A failure
 * is a TemplateRenderError naming the helper and its arguments, or a TransientApiError when the port's error
 * is retryable (throttling), so that the workflow retries instead of failing the cluster.
 */
import type { CloudLookups } from '../../ports/template-engine';
import { helperError } from '../../core/template-helpers/args';
import { TransientApiError, isRetryable } from '../../shared/errors';

export interface LookupRequest {
  /** Identifies the port call and its arguments, e.g. `instanceType\u0000m5.large`. */
  readonly key: string;
  /** How errors name the call, e.g. `amiID("kube-node", "123456789012")`. */
  readonly label: string;
  readonly run: (lookups: CloudLookups) => Promise<unknown>;
}

/** The lookups of one render: what this pass still needs, and what failed in earlier passes. */
export interface LookupRound {
  readonly pending: Map<string, LookupRequest>;
  readonly failures: Map<string, unknown>;
}

export const PENDING: unique symbol = Symbol('pending lookup');

export class CloudLookupCache {
  private readonly values = new Map<string, unknown>();
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(private readonly lookups: CloudLookups | undefined) {}

  /** The cached value, or PENDING after recording the request. Throws if no port is configured or it failed. */
  read(helper: string, request: LookupRequest, round: LookupRound): unknown {
    if (!this.lookups) throw helperError(`${helper} needs AWS access; pass --values or run with --simulate`);
    if (this.values.has(request.key)) return this.values.get(request.key);
    if (round.failures.has(request.key)) {
      const cause = round.failures.get(request.key);
      const message = `${request.label} failed: ${cause instanceof Error ? cause.message : String(cause)}`;
      // Throttling and the like stay retryable, so a Step Functions Retry can try the render again.
      throw isRetryable(cause) ? new TransientApiError(message, { cause }) : helperError(message, cause);
    }
    round.pending.set(request.key, request);
    return PENDING;
  }

  /** Awaits every pending request of the round; failures are remembered in the round. */
  async settle(round: LookupRound): Promise<void> {
    const lookups = this.lookups;
    if (!lookups) return;
    const requests = [...round.pending.values()];
    round.pending.clear();
    await Promise.all(
      requests.map(async (request) => {
        try {
          const value = await this.call(request, lookups);
          this.values.set(request.key, value);
        } catch (error) {
          round.failures.set(request.key, error);
        }
      }),
    );
  }

  private call(request: LookupRequest, lookups: CloudLookups): Promise<unknown> {
    let promise = this.inflight.get(request.key);
    if (!promise) {
      promise = request.run(lookups).finally(() => this.inflight.delete(request.key));
      this.inflight.set(request.key, promise);
    }
    return promise;
  }
}
