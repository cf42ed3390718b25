/**
 * One simulated CLM installation for the simulation benchmark: a state directory, a registry file and a config
 * directory (a copy of examples/config), run like `clm provision --simulate`, with the figures of each run.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterUpdateOutput } from '../lambdas/contracts/cluster-update';
import { configSourcesFromFlags } from '../lambdas/adapters/config-source/create-config-sources';
import { createRegistry } from '../lambdas/adapters/registry/create-registry';
import { runClusterUpdate, type TaskEvent } from '../lambdas/runtime/local/run-cluster-update';
import type { ExecutionRun } from '../lambdas/runtime/local/asl-runner';
import { loadDefinition, walkStates } from '../lambdas/runtime/local/asl-definitions';
import { createSimulatedSetup } from '../lambdas/runtime/wiring/simulated-ports';
import type { ScenarioInput } from '../lambdas/sim';
import type { PoolProgress } from '../lambdas/core/model/run';
import type { Cluster } from '../lambdas/core/model/cluster';
import type { KubeCluster } from '../lambdas/ports/kube-cluster';
import type { Ports } from '../lambdas/ports/ports';
import { taskMemoryMb } from '../lambdas/tasks/define-task';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunFigures {
  readonly status: string;
  readonly decision: string;
  readonly transitions: number;
  readonly maxHistoryEvents: number;
  readonly replaced: number;
  readonly pools: Readonly<Record<string, PoolProgress>>;
  /** States entered, by name, parent and children together (the transitions, itemised). */
  readonly entered: Readonly<Record<string, number>>;
  /** Wait states entered: each poll costs three transitions (Wait, the task again, its Choice). */
  readonly polls: number;
  /** API calls made by RollStep tasks, AWS (stacks, pools, lookups, values) and Kubernetes (kube.*). */
  readonly rollCalls: { aws: number; kube: number };
  /**
   * Every RollStep invocation: when it began (virtual ms; it ended `waitedSeconds` later, having waited in process
   * for short waits and PDB-refused drains) and what blocked its last step.
   */
  readonly rollSteps: readonly RollStepRecord[];
  /** When a pod eviction succeeded (virtual ms), in order: when the roll acted on a drain. */
  readonly evictions: readonly number[];
  /** Virtual time the run started (ms since the epoch; the world's clock). */
  readonly startedAt: number;
  /** Virtual time from the run's start to its end (ms). */
  readonly virtualMs: number;
  /** CPU of this process while the run was simulated (ms, user + system): the local runner, tasks and world. */
  readonly cpuMs: number;
  /** What Lambda would bill for the run's task invocations (see `LambdaUse`). */
  readonly lambda: LambdaUse;
  /** The run record at the end, as JSON (bytes): one DynamoDB item, at most 400 KB. */
  readonly recordBytes: number;
  /** Executions, the cluster-update execution and its children (one StartExecution each). */
  readonly executions: number;
  /** Writes to the progress store (leases, run records, status, controls, inventory): DynamoDB writes in AWS. */
  readonly progressWrites: number;
}

const PROGRESS_WRITES: ReadonlySet<string> = new Set([
  'acquireLease',
  'releaseLease',
  'putRun',
  'putStatus',
  'recordProblem',
  'putControls',
  'putInventory',
]);

/** The ports, with every progress store write counted. */
function countingProgressWrites(ports: Ports, count: { writes: number }): Ports {
  const progress = new Proxy(ports.progress, {
    get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || !PROGRESS_WRITES.has(String(key))) return value;
      return (...args: unknown[]) => {
        count.writes++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...ports, progress };
}

/**
 * Lambda billing of a run's task invocations: each is billed at its function's memory for its duration, estimated as
 * the seconds it waited in process plus `API_CALL_SECONDS` per AWS or Kubernetes API call it made (the simulated
 * calls take no time) plus its share of this process's CPU (runner and world included: an over-estimate).
 */
export interface LambdaUse {
  readonly invocations: number;
  readonly gbSeconds: number;
}

/** A typical in-region API round trip, for the Lambda duration estimate. */
export const API_CALL_SECONDS = 0.1;

export interface RollStepRecord {
  readonly at: number;
  readonly blockedBy?: string;
  readonly waitedSeconds?: number;
}

/** A state directory, a registry file and a config directory, run like `clm provision --simulate`. */
export class SimulatedSession {
  readonly dir = mkdtempSync(join(tmpdir(), 'clm-bench-sim-'));
  readonly config = join(this.dir, 'config');
  readonly state = join(this.dir, 'state');
  readonly registry = join(this.dir, 'clusters.yaml');

  constructor(registryYaml: string, scenario: ScenarioInput, prepareConfig: (dir: string) => void = () => undefined) {
    cpSync(join(ROOT, 'examples/config'), this.config, { recursive: true });
    prepareConfig(this.config);
    writeFileSync(this.registry, registryYaml);
    writeFileSync(join(this.dir, 'scenario.json'), JSON.stringify(scenario));
  }

  write(path: string, text: string): void {
    const file = join(this.config, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }

  edit(path: string, change: (text: string) => string): void {
    const file = join(this.config, path);
    writeFileSync(file, change(readFileSync(file, 'utf8')));
  }

  /** The simulated setup of a run, as `clm provision --simulate` makes it. */
  private async setup(clusterId: string) {
    const registry = createRegistry(this.registry, { cwd: this.dir });
    const sources = configSourcesFromFlags({ directory: this.config }, { cwd: this.dir });
    const all = await registry.listClusters();
    return createSimulatedSetup({
      stateDir: this.state,
      registry,
      sources,
      clusters: all.filter((c) => c.id === clusterId),
      knownClusterIds: all.map((c) => c.id),
      scenarioFile: join(this.dir, 'scenario.json'),
    });
  }

  async run(clusterId: string): Promise<RunFigures> {
    const sim = await this.setup(clusterId);
    const roll = rollRecorder(sim.world);
    const evictions: number[] = [];
    const startedAt = sim.world.now;
    const writes = { writes: 0 };
    const ports = countingProgressWrites(
      recordingEvictions(sim.ports, evictions, () => sim.world.now),
      writes,
    );
    const cpu = process.cpuUsage();
    const result = await runClusterUpdate(
      { clusterId, action: 'provision', options: { applyOnly: false }, trigger: 'cli' },
      {
        ports,
        executionId: `bench:${clusterId}`,
        advanceClock: (seconds) => sim.world.advance(seconds * 1000),
        onTask: roll.onTask,
      },
    );
    const cpuMs = cpuMsSince(cpu);
    const virtualMs = sim.world.now - startedAt;
    sim.save();
    const run = result.status === 'SUCCEEDED' ? ClusterUpdateOutput.parse(result.output).run : undefined;
    const record = run?.targetVersion ? await sim.progress.getRun(clusterId, run.targetVersion) : undefined;
    const pools = record?.pools ?? {};
    if (result.status !== 'SUCCEEDED') throw new Error(`${clusterId}: ${result.error?.Error}: ${result.error?.Cause}`);
    checkInvariants(clusterId, sim.world.invariants());
    return {
      status: result.status,
      decision: run?.decision ?? '',
      transitions: result.stats.stateTransitions,
      maxHistoryEvents: result.stats.maxHistoryEvents,
      entered: enteredStates(result.run),
      polls: waitsEntered(result.run),
      replaced: Object.values(pools).reduce((n, p) => n + p.replaced, 0),
      pools,
      rollCalls: roll.calls,
      rollSteps: roll.steps,
      evictions,
      startedAt,
      virtualMs,
      cpuMs,
      lambda: {
        invocations: roll.lambda.invocations,
        gbSeconds: roll.lambda.gbSeconds + (cpuMs / 1000) * roll.lambda.meanGb(),
      },
      recordBytes: Buffer.byteLength(JSON.stringify(record ?? {})),
      executions: result.stats.executions,
      progressWrites: writes.writes,
    };
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function checkInvariants(
  clusterId: string,
  invariants: { pdbViolations: number; nodesTerminatedTwice: number; details: readonly string[] },
): void {
  if (invariants.pdbViolations || invariants.nodesTerminatedTwice)
    throw new Error(`${clusterId}: invariants broken: ${invariants.details.join('; ')}`);
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The ports, with the virtual time of every successful eviction recorded. */
function recordingEvictions(ports: Ports, evictions: number[], now: () => number): Ports {
  const forCluster = (cluster: Cluster) => {
    const cp = ports.forCluster(cluster);
    const kube = new Proxy(cp.kube, {
      get: (target, key, receiver) =>
        key === 'evictPod'
          ? async (...args: Parameters<KubeCluster['evictPod']>) => {
              const result = await target.evictPod(...args);
              if (result === 'evicted') evictions.push(now());
              return result;
            }
          : Reflect.get(target, key, receiver),
    });
    return { ...cp, kube };
  };
  return { ...ports, forCluster };
}

/**
 * Counts the API calls of RollStep tasks and records when each ran and what blocked it; adds up every task
 * invocation's Lambda use (memory × waited seconds and API calls).
 */
function rollRecorder(world: { apiCalls(): Record<string, number>; readonly now: number }) {
  let last = world.apiCalls();
  const calls = { aws: 0, kube: 0 };
  const steps: RollStepRecord[] = [];
  const lambda = {
    invocations: 0,
    gbSeconds: 0,
    gb: 0,
    meanGb: () => (lambda.invocations ? lambda.gb / lambda.invocations : 0),
  };
  const onTask = (event: TaskEvent): void => {
    const now = world.apiCalls();
    const { waitedSeconds } = event.output as { waitedSeconds?: number };
    let made = 0;
    for (const [call, count] of Object.entries(now)) {
      const delta = count - (last[call] ?? 0);
      made += delta;
      if (event.task.name !== 'RollNodePool') continue;
      if (call.startsWith('kube.')) calls.kube += delta;
      else calls.aws += delta;
    }
    const gb = taskMemoryMb(event.task) / 1024;
    lambda.invocations += 1;
    lambda.gb += gb;
    lambda.gbSeconds += gb * ((waitedSeconds ?? 0) + made * API_CALL_SECONDS);
    if (event.task.name === 'RollNodePool') {
      const { blockedBy } = event.output as { blockedBy?: string };
      // An invocation that waited in process began `waitedSeconds` before it ended.
      const at = world.now - (waitedSeconds ?? 0) * 1000;
      steps.push({ at, ...(blockedBy ? { blockedBy } : {}), ...(waitedSeconds ? { waitedSeconds } : {}) });
    }
    last = now;
  };
  return { calls, steps, lambda, onTask };
}

const WAIT_STATES = new Set(
  (['clusterUpdate', 'nodePoolRollout'] as const).flatMap((key) =>
    walkStates(loadDefinition(key))
      .filter((s) => s.state.Type === 'Wait')
      .map((s) => s.name),
  ),
);

/** Wait states entered by an execution and its children. */
function waitsEntered(run: ExecutionRun): number {
  return (
    run.entered.filter((name) => WAIT_STATES.has(name)).length + run.children.reduce((n, c) => n + waitsEntered(c), 0)
  );
}

/** States entered by an execution and its children, by name. */
function enteredStates(run: ExecutionRun): Record<string, number> {
  const counts: Record<string, number> = {};
  const visit = (r: ExecutionRun): void => {
    for (const name of r.entered) counts[name] = (counts[name] ?? 0) + 1;
    r.children.forEach(visit);
  };
  visit(run);
  return counts;
}
