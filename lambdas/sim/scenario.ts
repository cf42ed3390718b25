import { readFileSync } from 'node:fs';
import { Quotas } from './aws/run-instances-bucket';
import * as z from 'zod';
import { loadYamlWithPositions } from '../core/model/yaml-positions';
import { ValidationError } from '../shared/errors';
import { PORT_CALLS } from './port-calls';

/**
 * A simulation scenario (`examples/scenarios/*.yaml`): the seed, virtual timings, workloads that run in
 * each cluster from the start, and faults to inject. Every field has a default, so `{}` is a valid scenario.
 */

const seconds = z.number().nonnegative();
const intOrPercent = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+%$/, 'expected an integer or a percentage like "50%"'),
]);
const stringMap = z.record(z.string(), z.string());

export const Timings = z
  .object({
    stackCreateSeconds: seconds.default(60),
    stackUpdateSeconds: seconds.default(45),
    stackDeleteSeconds: seconds.default(30),
    /** Pending → InService (the node joins, as a Node object, at the same moment). */
    instanceBootSeconds: seconds.default(90),
    /** A Node joined → its Ready condition (the kubelet's and the CNI's start; on AWS typically 10–30 s). */
    nodeReadySeconds: seconds.default(0),
    /** Terminating → Terminated (the node and its pods disappear then). */
    instanceTerminateSeconds: seconds.default(30),
    /** Scheduled → Ready. */
    podStartSeconds: seconds.default(10),
    /** terminationGracePeriodSeconds of pods that do not set one. */
    podTerminationSeconds: seconds.default(30),
    /** A pod with volumes gone from a node → its VolumeAttachments gone (the attach-detach controller's work). */
    volumeDetachSeconds: seconds.default(20),
  })
  .strict();
export type Timings = z.infer<typeof Timings>;

export const Toleration = z
  .object({
    key: z.string().optional(),
    operator: z.enum(['Exists', 'Equal']).optional(),
    value: z.string().optional(),
    effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  })
  .strict();

/** A compact workload; `labels` default to `{ app: <name> }`. */
export const Workload = z
  .object({
    kind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet', 'Pod']),
    name: z.string().min(1),
    namespace: z.string().min(1).default('default'),
    replicas: z.number().int().nonnegative().default(1),
    labels: stringMap.optional(),
    nodeSelector: stringMap.optional(),
    tolerations: z.array(Toleration).optional(),
    /** StatefulSet volumeClaimTemplates names: each pod's volume binds to the zone it first runs in. */
    volumeClaims: z.array(z.string().min(1)).optional(),
    terminationGracePeriodSeconds: z.number().int().nonnegative().optional(),
  })
  .strict();
export type Workload = z.infer<typeof Workload>;

export const PdbSpec = z
  .object({
    name: z.string().min(1),
    namespace: z.string().min(1).default('default'),
    /** matchLabels */
    selector: stringMap,
    minAvailable: intOrPercent.optional(),
    maxUnavailable: intOrPercent.optional(),
    /** Refuse every eviction this PDB covers until this many virtual seconds after the world started. */
    blockEvictionsUntilSeconds: seconds.optional(),
  })
  .strict();
export type PdbSpec = z.infer<typeof PdbSpec>;

/**
 * What Kubernetes made in the cluster's account outside its stacks, as if Services of type LoadBalancer and
 * PersistentVolumes had run there: created once, when the world first acts for the cluster, and left for
 * decommission to clean up.
 */
export const Leftovers = z
  .object({
    /** Each with a security group `k8s-elb-<name>` (classic) or `k8s-<name>` (v2, and a target group `<name>-tg`), tagged like it. */
    loadBalancers: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9-]{1,32}$/),
            type: z.enum(['classic', 'application', 'network']),
          })
          .strict(),
      )
      .default([]),
    /** Unattached (available) EBS volumes with the cluster's tags. */
    volumes: z.number().int().nonnegative().default(0),
    /** Available network interfaces the VPC CNI left, tagged with the cluster's name. */
    networkInterfaces: z.number().int().nonnegative().default(0),
  })
  .strict();
export type Leftovers = z.infer<typeof Leftovers>;

export const ClusterScenario = z
  .object({
    workloads: z.array(Workload).default([]),
    pdbs: z.array(PdbSpec).default([]),
    /** Raw Kubernetes objects applied at start, as if by `kubectl apply`. */
    manifests: z.array(z.record(z.string(), z.unknown())).default([]),
    leftovers: Leftovers.optional(),
  })
  .strict();

export const PORT_METHOD = /^(stacks|pools|kube|lookups|values|artifacts|alarms|leftovers)\.[a-zA-Z]+$/;

export const ApiFault = z
  .object({
    /** `<port>.<method>`, e.g. `kube.evictPod`, `stacks.deploy`, `pools.terminate`. */
    on: z
      .string()
      .regex(PORT_METHOD, 'expected <port>.<method>, e.g. kube.evictPod')
      .superRefine((on, ctx) => {
        const [port = '', method = ''] = on.split('.');
        const calls = PORT_CALLS[port];
        if (PORT_METHOD.test(on) && calls && !calls.includes(method))
          ctx.addIssue({
            code: 'custom',
            message: `unknown call "${on}" (it would never fire); the calls of ${port}: ${calls.join(', ')}`,
          });
      }),
    /** throttle → ThrottledError, transient → TransientApiError, fatal → KubeApiError (kube) or ClmError. */
    error: z.enum(['throttle', 'transient', 'fatal']),
    times: z.number().int().positive().default(1),
    /** Let this many matching calls succeed first. */
    after: z.number().int().nonnegative().default(0),
    /** Only calls for this cluster id (default: any). */
    cluster: z.string().optional(),
  })
  .strict();
export type ApiFault = z.infer<typeof ApiFault>;

export const PodNeverReady = z
  .object({
    cluster: z.string().optional(),
    namespace: z.string().optional(),
    labelSelector: z.string().optional(),
    namePrefix: z.string().optional(),
  })
  .strict();
export type PodNeverReady = z.infer<typeof PodNeverReady>;

export const StackFailure = z
  .object({
    stack: z.string().min(1),
    operation: z.enum(['create', 'update']).default('update'),
    reason: z.string().default('Resource handler returned message: "Simulated failure"'),
    times: z.number().int().positive().default(1),
    /** The logical id of the resource that fails (its events name it). @default the template's first resource */
    resource: z.string().min(1).optional(),
    /**
     * update only: the rollback fails too (UPDATE_ROLLBACK_FAILED), this many times — the first rollback and then
     * each ContinueUpdateRollback that does not skip the resource.
     */
    rollbackFailures: z.number().int().nonnegative().default(0),
    rollbackReason: z.string().default('Resource handler returned message: "Simulated failure while rolling back"'),
  })
  .strict();
export type StackFailure = z.infer<typeof StackFailure>;

export const BlockedEviction = z
  .object({
    cluster: z.string().optional(),
    namespace: z.string().min(1).default('default'),
    pdb: z.string().min(1),
    untilSeconds: seconds,
  })
  .strict();
export type BlockedEviction = z.infer<typeof BlockedEviction>;

/**
 * A CloudWatch alarm of the cluster's account (the roll's `update_health_alarm`): in `state` from `fromSeconds` until
 * `untilSeconds` (virtual seconds after the world started; open-ended without it), OK otherwise. Alarms no entry
 * names do not exist.
 */
export const AlarmSpec = z
  .object({
    name: z.string().min(1),
    cluster: z.string().optional(),
    state: z.enum(['ALARM', 'INSUFFICIENT_DATA']).default('ALARM'),
    fromSeconds: seconds.default(0),
    untilSeconds: seconds.optional(),
  })
  .strict();
export type AlarmSpec = z.infer<typeof AlarmSpec>;

export const Faults = z
  .object({
    apiErrors: z.array(ApiFault).default([]),
    podsNeverReady: z.array(PodNeverReady).default([]),
    stackFailures: z.array(StackFailure).default([]),
    blockedEvictions: z.array(BlockedEviction).default([]),
    alarms: z.array(AlarmSpec).default([]),
  })
  .strict();
export type Faults = z.infer<typeof Faults>;

export const ImageSpec = z
  .object({ name: z.string().min(1), owner: z.string().min(1), id: z.string().regex(/^ami-[0-9a-f]+$/) })
  .strict();

export const Scenario = z
  .object({
    seed: z.union([z.number().int(), z.string()]).default(1),
    /** Virtual time zero. */
    startTime: z.iso.datetime().default('2026-01-01T00:00:00.000Z'),
    timings: Timings.prefault({}),
    /** AMIs `amiID name owner` finds; other names get a stable id derived from name and owner. */
    images: z.array(ImageSpec).default([]),
    clusters: z.record(z.string(), ClusterScenario).default({}),
    faults: Faults.prefault({}),
    /** The account's EC2 quotas the simulator enforces (aws/run-instances-bucket.ts). */
    quotas: Quotas.prefault({}),
  })
  .strict();
export type Scenario = z.infer<typeof Scenario>;
export type ScenarioInput = z.input<typeof Scenario>;

export interface ScenarioCheck {
  /** 1-based line of a field, for messages. */
  readonly lineOf?: (path: readonly (string | number)[]) => number | undefined;
  /**
   * The cluster ids the world will see (the registry's): a fault or a `clusters:` entry naming another cluster
   * would never apply, so it is refused. @default - any cluster id is accepted
   */
  readonly knownClusters?: readonly string[];
}

/** Validate a scenario object; `file` names the source in errors. */
export function parseScenario(input: unknown, file = 'scenario', check: ScenarioCheck = {}): Scenario {
  const where = (path: readonly (string | number)[]): string => {
    const line = check.lineOf?.(path);
    const field = path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    return `${file}${line ? `:${line}` : ''}: ${field || '(top level)'}`;
  };
  const result = Scenario.safeParse(input ?? {});
  if (!result.success) {
    const issues = result.error.issues.map(
      (issue) => `${where(issue.path.filter((p): p is string | number => typeof p !== 'symbol'))}: ${issue.message}`,
    );
    throw new ValidationError(`${file}: invalid simulation scenario`, { issues });
  }
  const issues = check.knownClusters ? unknownClusters(result.data, check.knownClusters, where) : [];
  if (issues.length) throw new ValidationError(`${file}: invalid simulation scenario`, { issues });
  return result.data;
}

/** Every place the scenario names a cluster that is not one of `known`. */
function unknownClusters(
  scenario: Scenario,
  known: readonly string[],
  where: (path: readonly (string | number)[]) => string,
): string[] {
  const ids = new Set(known);
  const choices = known.length ? known.join(', ') : 'none';
  const named: { path: (string | number)[]; id: string; what: string }[] = [
    ...Object.keys(scenario.clusters).map((id) => ({ path: ['clusters', id], id, what: 'workloads for' })),
    ...(['apiErrors', 'podsNeverReady', 'blockedEvictions'] as const).flatMap((kind) =>
      scenario.faults[kind].flatMap((fault, i) =>
        fault.cluster === undefined
          ? []
          : [{ path: ['faults', kind, i, 'cluster'], id: fault.cluster, what: 'a fault on' }],
      ),
    ),
  ];
  return named
    .filter(({ id }) => !ids.has(id))
    .map(
      ({ path, id, what }) =>
        `${where(path)}: ${what} unknown cluster "${id}" (it would never apply); the registry's clusters: ${choices}`,
    );
}

/** Parse scenario YAML text; errors name the file, line and field. */
export function parseScenarioYaml(text: string, file: string, check: Omit<ScenarioCheck, 'lineOf'> = {}): Scenario {
  const doc = loadYamlWithPositions(text, file);
  return parseScenario(doc.value, file, { ...check, lineOf: (path) => doc.lineOf(path) });
}

export function loadScenarioFile(path: string, check: Omit<ScenarioCheck, 'lineOf'> = {}): Scenario {
  return parseScenarioYaml(readFileSync(path, 'utf8'), path, check);
}
