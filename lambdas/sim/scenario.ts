import { readFileSync } from 'node:fs';
import { Quotas } from './aws/run-instances-bucket';
import * as z from '../shared/zod';
import { loadYamlWithPositions } from '../core/model/yaml-positions';
import { ValidationError } from '../shared/errors';
import { PORT_CALLS } from './port-calls';
import { AccountScenario } from './scenario-accounts';
import { NodeIncidents } from './scenario-node-incidents';
import { LiveEdit } from './kube/live-edits';

export { AccountScenario, CertificateSpec } from './scenario-accounts';

/**
 * A simulation scenario (`examples/scenarios/*.yaml`): the seed, virtual timings, workloads that run in
 * each cluster from the start, and faults to inject. Every field has a default, so `{}` is a valid scenario.
 */

const seconds = z.number().check(z.nonnegative());
const intOrPercent = z.union([
  z.number().check(z.int(), z.nonnegative()),
  z.string().check(z.regex(/^\d+%$/, 'expected an integer or a percentage like "50%"')),
]);
const stringMap = z.record(z.string(), z.string());

export const Timings = z.strictObject({
  stackCreateSeconds: z._default(seconds, 60),
  stackUpdateSeconds: z._default(seconds, 45),
  stackDeleteSeconds: z._default(seconds, 30),
  /** Pending → InService (the node joins, as a Node object, at the same moment). */
  instanceBootSeconds: z._default(seconds, 90),
  /** A Node joined → its Ready condition (the kubelet's and the CNI's start; on AWS typically 10–30 s). */
  nodeReadySeconds: z._default(seconds, 0),
  /** Terminating → Terminated (the node and its pods disappear then). */
  instanceTerminateSeconds: z._default(seconds, 30),
  /** Scheduled → Ready. */
  podStartSeconds: z._default(seconds, 10),
  /** terminationGracePeriodSeconds of pods that do not set one. */
  podTerminationSeconds: z._default(seconds, 30),
  /** A pod with volumes gone from a node → its VolumeAttachments gone (the attach-detach controller's work). */
  volumeDetachSeconds: z._default(seconds, 20),
});
export type Timings = z.infer<typeof Timings>;

export const Toleration = z.strictObject({
  key: z.optional(z.string()),
  operator: z.optional(z.enum(['Exists', 'Equal'])),
  value: z.optional(z.string()),
  effect: z.optional(z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])),
});

/** A compact workload; `labels` default to `{ app: <name> }`. */
export const Workload = z.strictObject({
  kind: z.enum(['Deployment', 'StatefulSet', 'DaemonSet', 'Pod']),
  name: z.string().check(z.minLength(1)),
  namespace: z._default(z.string().check(z.minLength(1)), 'default'),
  replicas: z._default(z.number().check(z.int(), z.nonnegative()), 1),
  labels: z.optional(stringMap),
  nodeSelector: z.optional(stringMap),
  tolerations: z.optional(z.array(Toleration)),
  /** StatefulSet volumeClaimTemplates names: each pod's volume binds to the zone it first runs in. */
  volumeClaims: z.optional(z.array(z.string().check(z.minLength(1)))),
  terminationGracePeriodSeconds: z.optional(z.number().check(z.int(), z.nonnegative())),
});
export type Workload = z.infer<typeof Workload>;

export const PdbSpec = z.strictObject({
  name: z.string().check(z.minLength(1)),
  namespace: z._default(z.string().check(z.minLength(1)), 'default'),
  /** matchLabels */
  selector: stringMap,
  minAvailable: z.optional(intOrPercent),
  maxUnavailable: z.optional(intOrPercent),
  /** Refuse every eviction this PDB covers until this many virtual seconds after the world started. */
  blockEvictionsUntilSeconds: z.optional(seconds),
});
export type PdbSpec = z.infer<typeof PdbSpec>;

/**
 * What Kubernetes made in the cluster's account outside its stacks, as if Services of type LoadBalancer and
 * PersistentVolumes had run there: created once, when the world first acts for the cluster, and left for
 * decommission to clean up.
 */
export const Leftovers = z.strictObject({
  /** Each with a security group `k8s-elb-<name>` (classic) or `k8s-<name>` (v2, and a target group `<name>-tg`), tagged like it. */
  loadBalancers: z._default(
    z.array(
      z.strictObject({
        name: z.string().check(z.regex(/^[A-Za-z0-9-]{1,32}$/)),
        type: z.enum(['classic', 'application', 'network']),
      }),
    ),
    [],
  ),
  /** Unattached (available) EBS volumes with the cluster's tags. */
  volumes: z._default(z.number().check(z.int(), z.nonnegative()), 0),
  /** Available network interfaces the VPC CNI left, tagged with the cluster's name. */
  networkInterfaces: z._default(z.number().check(z.int(), z.nonnegative()), 0),
});
export type Leftovers = z.infer<typeof Leftovers>;

export const ClusterScenario = z.strictObject({
  workloads: z._default(z.array(Workload), []),
  pdbs: z._default(z.array(PdbSpec), []),
  /** Raw Kubernetes objects applied at start, as if by `kubectl apply`. */
  manifests: z._default(z.array(z.record(z.string(), z.unknown())), []),
  leftovers: z.optional(Leftovers),
  /** PVC `<namespace>/<claim>` → the zone its volume already lives in (a StatefulSet's pod then runs only there). */
  volumeZones: z.optional(z.record(z.string(), z.string())),
});

export const PORT_METHOD = /^(stacks|pools|kube|lookups|values|artifacts|alarms|leftovers|nodeFiles)\.[a-zA-Z]+$/;

export const ApiFault = z.strictObject({
  /** `<port>.<method>`, e.g. `kube.evictPod`, `stacks.deploy`, `pools.terminate`. */
  on: z.string().check(
    z.regex(PORT_METHOD, 'expected <port>.<method>, e.g. kube.evictPod'),
    z.superRefine((on, ctx) => {
      const [port = '', method = ''] = on.split('.');
      const calls = PORT_CALLS[port];
      if (PORT_METHOD.test(on) && calls && !calls.includes(method))
        ctx.addIssue({
          code: 'custom',
          message: `unknown call "${on}" (it would never fire); the calls of ${port}: ${calls.join(', ')}`,
        });
    }),
  ),
  /** throttle → ThrottledError, transient → TransientApiError, fatal → KubeApiError (kube) or ClmError. */
  error: z.enum(['throttle', 'transient', 'fatal']),
  times: z._default(z.number().check(z.int(), z.positive()), 1),
  /** Let this many matching calls succeed first. */
  after: z._default(z.number().check(z.int(), z.nonnegative()), 0),
  /** Only calls for this cluster id (default: any). */
  cluster: z.optional(z.string()),
});
export type ApiFault = z.infer<typeof ApiFault>;

export const PodNeverReady = z.strictObject({
  cluster: z.optional(z.string()),
  namespace: z.optional(z.string()),
  labelSelector: z.optional(z.string()),
  namePrefix: z.optional(z.string()),
});
export type PodNeverReady = z.infer<typeof PodNeverReady>;

export const StackFailure = z.strictObject({
  stack: z.string().check(z.minLength(1)),
  operation: z._default(z.enum(['create', 'update']), 'update'),
  reason: z._default(z.string(), 'Resource handler returned message: "Simulated failure"'),
  times: z._default(z.number().check(z.int(), z.positive()), 1),
  /** The logical id of the resource that fails (its events name it). @default the template's first resource */
  resource: z.optional(z.string().check(z.minLength(1))),
  /**
   * update only: the rollback fails too (UPDATE_ROLLBACK_FAILED), this many times — the first rollback and then
   * each ContinueUpdateRollback that does not skip the resource.
   */
  rollbackFailures: z._default(z.number().check(z.int(), z.nonnegative()), 0),
  rollbackReason: z._default(z.string(), 'Resource handler returned message: "Simulated failure while rolling back"'),
});
export type StackFailure = z.infer<typeof StackFailure>;

export const BlockedEviction = z.strictObject({
  cluster: z.optional(z.string()),
  namespace: z._default(z.string().check(z.minLength(1)), 'default'),
  pdb: z.string().check(z.minLength(1)),
  untilSeconds: seconds,
});
export type BlockedEviction = z.infer<typeof BlockedEviction>;

/**
 * A CloudWatch alarm of the cluster's account (the roll's `update_health_alarm`): in `state` from `fromSeconds` until
 * `untilSeconds` (virtual seconds after the world started; open-ended without it), OK otherwise. Alarms no entry
 * names do not exist.
 */
export const AlarmSpec = z.strictObject({
  name: z.string().check(z.minLength(1)),
  cluster: z.optional(z.string()),
  state: z._default(z.enum(['ALARM', 'INSUFFICIENT_DATA']), 'ALARM'),
  fromSeconds: z._default(seconds, 0),
  untilSeconds: z.optional(seconds),
});
export type AlarmSpec = z.infer<typeof AlarmSpec>;

export const Faults = z.strictObject({
  apiErrors: z._default(z.array(ApiFault), []),
  podsNeverReady: z._default(z.array(PodNeverReady), []),
  stackFailures: z._default(z.array(StackFailure), []),
  blockedEvictions: z._default(z.array(BlockedEviction), []),
  alarms: z._default(z.array(AlarmSpec), []),
});
export type Faults = z.infer<typeof Faults>;

export const ImageSpec = z.strictObject({
  name: z.string().check(z.minLength(1)),
  owner: z.string().check(z.minLength(1)),
  id: z.string().check(z.regex(/^ami-[0-9a-f]+$/)),
});

export const Scenario = z.strictObject({
  seed: z._default(z.union([z.number().check(z.int()), z.string()]), 1),
  /** Virtual time zero. */
  startTime: z._default(z.iso.datetime(), '2026-01-01T00:00:00.000Z'),
  timings: z.prefault(Timings, {}),
  /** AMIs `amiID name owner` finds; other names get a stable id derived from name and owner. */
  images: z._default(z.array(ImageSpec), []),
  clusters: z._default(z.record(z.string(), ClusterScenario), {}),
  accounts: z._default(z.array(AccountScenario), []),
  faults: z.prefault(Faults, {}),
  /** Incidents: live objects edited by another field manager at a simulated time (kube/live-edits.ts). */
  liveEdits: z._default(z.array(LiveEdit), []),
  /** The account's EC2 quotas the simulator enforces (aws/run-instances-bucket.ts). */
  quotas: z.prefault(Quotas, {}),
  /** Nodes that stop reporting at a virtual time (scenario-node-incidents.ts). */
  nodeIncidents: NodeIncidents,
});
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
    ...scenario.nodeIncidents.flatMap((incident, i) =>
      incident.cluster === undefined
        ? []
        : [{ path: ['nodeIncidents', i, 'cluster'], id: incident.cluster, what: 'a node incident in' }],
    ),
    ...scenario.liveEdits.map((edit, i) => ({
      path: ['liveEdits', i, 'cluster'],
      id: edit.cluster,
      what: 'a live edit of',
    })),
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
