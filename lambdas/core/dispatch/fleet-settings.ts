import * as z from '../../shared/zod';
import { ValidationError } from '../../shared/errors';

/** How the dispatcher paces a fleet. Every field has a default; see docs/fleet.md. */
export interface FleetSettings {
  /** Environments in rollout order; environments not listed come last, in name order. */
  readonly waveOrder: readonly string[];
  /** Split each environment's wave by criticality_level, lowest first. */
  readonly wavesByCriticality: boolean;
  /** Cluster-update executions running at once across the fleet, counting those started elsewhere. */
  readonly maxConcurrent: number;
  /** First wait before a failed update is tried again; doubles with every further failure. */
  readonly retryBaseMs: number;
  /** Longest wait between two attempts. */
  readonly retryMaxMs: number;
  /** Dead executions (timed out, aborted, failed on a retryable error) resumed at once this many times before back-off applies. */
  readonly freeResumes: number;
  /** Infrastructure accounts to manage (regex, CLM `--include`). */
  readonly include?: string;
  /** Infrastructure accounts to leave alone (regex, CLM `--exclude`; wins over include). */
  readonly exclude?: string;
}

const MINUTE = 60_000;

export const DEFAULT_FLEET_SETTINGS: FleetSettings = {
  waveOrder: ['test', 'staging', 'production'],
  wavesByCriticality: true,
  maxConcurrent: 10,
  retryBaseMs: 15 * MINUTE,
  retryMaxMs: 6 * 60 * MINUTE,
  freeResumes: 3,
};

/** A value read by `read` first, then checked by `schema` (classic zod's `preprocess`). */
const preprocess = <T extends z.ZodMiniType>(read: (value: unknown) => unknown, schema: T) =>
  z.pipe(z.transform(read), schema);

const list = preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'name at least one environment')),
);
const flag = preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean());
const count = (min: number) => z.coerce.number().check(z.int(), z.minimum(min));

const SETTINGS = z.strictObject({
  waveOrder: z.optional(list),
  wavesByCriticality: z.optional(flag),
  maxConcurrent: z.optional(count(1)),
  retryBaseMs: z.optional(count(0)),
  retryMaxMs: z.optional(count(0)),
  freeResumes: z.optional(count(0)),
  include: z.optional(z.string()),
  exclude: z.optional(z.string()),
});

/**
 * Settings from plain values (environment variables or flags, strings allowed: `"test,staging"`, `"5"`),
 * the defaults filling the rest. Bad values are one ValidationError naming each setting.
 */
export function fleetSettings(raw: Readonly<Record<string, unknown>> = {}): FleetSettings {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = SETTINGS.safeParse(defined);
  if (!parsed.success) {
    throw new ValidationError('invalid fleet settings', {
      issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`),
    });
  }
  const settings: FleetSettings = { ...DEFAULT_FLEET_SETTINGS, ...parsed.data };
  if (settings.retryMaxMs < settings.retryBaseMs) {
    throw new ValidationError('invalid fleet settings', {
      issues: [`retryMaxMs: ${settings.retryMaxMs} is below retryBaseMs ${settings.retryBaseMs}`],
    });
  }
  return settings;
}
