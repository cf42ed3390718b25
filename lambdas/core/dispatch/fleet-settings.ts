import * as z from '../../shared/zod';
import { ValidationError } from '../../shared/errors';
import type { LaunchLimits } from '../capacity/launch-bucket';

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
  /**
   * Cluster updates running at once in one infrastructure account and region (EC2's launch limits are per account and
   * region); unset: no cap of its own. Counts the executions the dispatcher recorded as running.
   */
  readonly maxConcurrentPerAccount?: number;
  /** Cluster updates running at once in one region, across accounts; unset: no cap of its own. */
  readonly maxConcurrentPerRegion?: number;
  /** StartExecution calls per second a pass makes at most; a pass starts at most 60 seconds' worth. */
  readonly startsPerSecond: number;
  /** Instance launches per second the rolls of one account and region may cause together (the launch budget). */
  readonly launchesPerSecond: number;
  /** Launches at once the budget of one account and region allows after a quiet spell. */
  readonly launchBurst: number;
  /** Items each account and region's budget is split over (conditional writes spread over them). */
  readonly launchShards: number;
  /** How long a finished wave soaks before the next wave of the same rollout starts. */
  readonly waveSoakMs: number;
  /** The share of a wave's clusters that may fail without halting it (0: the first failure halts, CLM's way). */
  readonly waveFailureTolerance: number;
  /**
   * The regions whose clusters this deployment manages (one deployment per region, docs/scale.md); unset: every
   * region.
   */
  readonly regions?: readonly string[];
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
  startsPerSecond: 25,
  launchesPerSecond: 1.5,
  launchBurst: 250,
  launchShards: 1,
  waveSoakMs: 0,
  waveFailureTolerance: 0,
};

/** A pass starts at most this many seconds' worth of executions at `startsPerSecond` (then the next pass goes on). */
export const PASS_START_SECONDS = 60;

/** The most executions one pass starts. */
export function startsPerPass(settings: Pick<FleetSettings, 'startsPerSecond'>): number {
  return Math.max(1, Math.floor(settings.startsPerSecond * PASS_START_SECONDS));
}

/** A value read by `read` first, then checked by `schema` (classic zod's `preprocess`). */
const preprocess = <T extends z.ZodMiniType>(read: (value: unknown) => unknown, schema: T) =>
  z.pipe(z.transform(read), schema);

/** `a, b` → ['a', 'b'] (an environment variable or CDK context value); arrays as they are. */
const commaList = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

const list = preprocess(
  commaList,
  z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'name at least one environment')),
);
const flag = preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean());
const count = (min: number) => z.coerce.number().check(z.int(), z.minimum(min));
const rate = z.coerce.number().check(z.positive(), z.maximum(100_000));

const SETTINGS = z.strictObject({
  waveOrder: z.optional(list),
  wavesByCriticality: z.optional(flag),
  maxConcurrent: z.optional(count(1)),
  retryBaseMs: z.optional(count(0)),
  retryMaxMs: z.optional(count(0)),
  freeResumes: z.optional(count(0)),
  maxConcurrentPerAccount: z.optional(count(1)),
  maxConcurrentPerRegion: z.optional(count(1)),
  startsPerSecond: z.optional(rate),
  launchesPerSecond: z.optional(rate),
  launchBurst: z.optional(count(1)),
  launchShards: z.optional(count(1).check(z.maximum(100))),
  waveSoakMs: z.optional(count(0)),
  waveFailureTolerance: z.optional(z.coerce.number().check(z.minimum(0), z.maximum(1))),
  regions: z.optional(
    preprocess(
      commaList,
      z
        .array(z.string().check(z.regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'expected region names such as eu-central-1')))
        .check(z.minLength(1)),
    ),
  ),
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
  if (settings.launchBurst < settings.launchShards) {
    throw new ValidationError('invalid fleet settings', {
      issues: [
        `launchBurst: ${settings.launchBurst} is below launchShards ${settings.launchShards} (each shard holds at least 1)`,
      ],
    });
  }
  if (settings.retryMaxMs < settings.retryBaseMs) {
    throw new ValidationError('invalid fleet settings', {
      issues: [`retryMaxMs: ${settings.retryMaxMs} is below retryBaseMs ${settings.retryBaseMs}`],
    });
  }
  return settings;
}

/** The launch budget of every account and region these settings give (core/capacity/launch-bucket.ts). */
export function launchLimitsOf(
  settings: Pick<FleetSettings, 'launchesPerSecond' | 'launchBurst' | 'launchShards'>,
): LaunchLimits {
  return { perSecond: settings.launchesPerSecond, burst: settings.launchBurst, shards: settings.launchShards };
}
