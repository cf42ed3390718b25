import { asgLaunchTimes } from './aws/run-instances-bucket';
import type * as z from '../shared/zod';
import { clusterName } from '../core/cloudformation/stack-names';
import { awsAccountId, isMasterPool } from '../core/model/cluster';
import type { Cluster } from '../core/model/cluster';
import type { ArtifactStore } from '../ports/artifact-store';
import type { Clock } from '../ports/clock';
import type { ClusterPorts } from '../ports/ports';
import { accountKey, ensureAccount } from './aws/account';
import { describeCluster, type ClusterSnapshot } from './describe';
import { advanceTo, kubeFor, settle } from './engine';
import { applyObjects } from './kube/apply-objects';
import { addLiveEdits, type LiveEdit } from './kube/live-edits';
import { loadWorld, saveWorld, worldExists, type PersistedView } from './persistence';
import { simArtifactStore, type ArtifactData } from './ports/sim-artifact-store';
import { simKubeCluster } from './ports/sim-kube-cluster';
import { simHealthAlarms } from './ports/sim-health-alarms';
import { simLookups } from './ports/sim-lookups';
import { simNodePoolBackend } from './ports/sim-node-pool-backend';
import { simStackDeployer } from './ports/sim-stack-deployer';
import { simValues } from './ports/sim-values';
import { simLeftovers } from './ports/sim-leftovers';
import { simAccountQuotas } from './ports/sim-account-quotas';
import { simEksClusters } from './ports/sim-eks-clusters';
import { optionalCaData } from './cluster-ca';
import { simNodeFiles } from './ports/sim-node-files';
import { decrypt } from './aws/kms';
import { seedAccountStacks } from './aws/account-seeds';
import { cloudResourcesOf, seedLeftovers } from './aws/leftovers';
import { seedState } from './prng';
import { Faults, loadScenarioFile, parseScenario } from './scenario';
import type { Scenario, ScenarioCheck, ScenarioInput } from './scenario';
import { namespaceObject, pdbObject, workloadObjects } from './scenario-workloads';
import { SimContext } from './sim-context';
import type { CloudResourceRecord, WorldState } from './world-state';

export interface Invariants {
  /** Times a disruption left a PDB with fewer healthy pods than it requires. */
  readonly pdbViolations: number;
  /** Terminate calls on instances already terminating or terminated. */
  readonly nodesTerminatedTwice: number;
  readonly details: readonly string[];
}

/**
 * A simulated AWS account (CloudFormation, Auto Scaling, EC2) and Kubernetes clusters on a virtual clock,
 * behind the same ports as the real adapters. Deterministic for a given scenario and sequence of calls;
 * nothing happens between calls except through `advance`/`advanceTo`, which process scheduled events
 * (stack progress, instance boot and shutdown, pod start and termination) in time order.
 *
 * @example
 * const world = SimulatedWorld.create({ seed: 7 });
 * const ports = world.forCluster(cluster);
 * await ports.stacks.deploy({ name: cluster.localId, templateBody, tags: {} });
 * world.advance(60_000);
 * await ports.stacks.describe(cluster.localId); // CREATE_COMPLETE
 */
export class SimulatedWorld {
  readonly clock: Clock;
  /** The simulated S3 bucket for rendered configs. */
  readonly artifacts: ArtifactStore;
  private readonly ctx: SimContext;

  private constructor(
    state: WorldState,
    private readonly artifactData: ArtifactData,
    private persisted?: PersistedView,
  ) {
    this.ctx = new SimContext(state);
    // A task's in-process wait lets virtual time pass, as a Wait state does between tasks.
    this.clock = {
      now: () => this.ctx.state.now,
      sleep: async (ms) => this.advance(Math.max(0, ms)),
      kind: 'simulated',
    };
    this.artifacts = simArtifactStore(this.ctx, artifactData);
  }

  /** A new world; `scenario` is validated (errors name `file` and the field). */
  static create(scenario: ScenarioInput | Scenario = {}, file = 'scenario', fromFile = false): SimulatedWorld {
    const parsed = parseScenario(scenario, file);
    const startTime = Date.parse(parsed.startTime);
    const state: WorldState = {
      format: 1,
      now: startTime,
      startTime,
      rng: seedState(parsed.seed),
      seq: 0,
      scenario: parsed,
      ...(fromFile ? { scenarioFile: file } : {}),
      events: [],
      clusters: {},
      accounts: {},
      kube: {},
      apiCalls: {},
      faultUses: { apiErrors: [], stackFailures: [] },
      invariants: { pdbViolations: 0, nodesTerminatedTwice: 0, details: [] },
    };
    const world = new SimulatedWorld(state, { objects: new Map(), dirty: new Set() });
    world.startWorkloads();
    seedAccountStacks(world.ctx);
    addLiveEdits(world.ctx);
    return world;
  }

  /** A new world from a scenario file (recorded in the world); `check.knownClusters` refuses faults on other clusters. */
  static fromScenarioFile(path: string, check: Omit<ScenarioCheck, 'lineOf'> = {}): SimulatedWorld {
    return SimulatedWorld.create(loadScenarioFile(path, check), path, true);
  }

  /** A world saved with `save(dir)`. */
  static load(dir: string): SimulatedWorld {
    const { state, artifacts, view } = loadWorld(dir);
    return new SimulatedWorld(state, artifacts, view);
  }

  /** `load(dir)` when the directory holds a world, else a new one from `scenario`. */
  static loadOrCreate(dir: string, scenario: ScenarioInput | Scenario = {}, file?: string): SimulatedWorld {
    return worldExists(dir) ? SimulatedWorld.load(dir) : SimulatedWorld.create(scenario, file);
  }

  /**
   * Persist atomically (temp file + rename, under the directory's lock); cheap enough to call after every task.
   * Into a directory other processes use too, only this world's clusters are written (see persistence.ts).
   */
  save(dir: string): void {
    this.persisted = saveWorld(dir, this.ctx.state, this.artifactData, this.persisted, this.ctx.acted);
  }

  get now(): number {
    return this.ctx.state.now;
  }

  get scenario(): Scenario {
    return this.ctx.state.scenario;
  }

  /** The file the world's scenario came from, if it came from one. */
  get scenarioFile(): string | undefined {
    return this.ctx.state.scenarioFile;
  }

  /** Let `ms` of virtual time pass. */
  advance(ms: number): void {
    advanceTo(this.ctx, this.ctx.state.now + ms);
  }

  /** Let virtual time pass until `time` (ms since the epoch); the past is ignored. */
  advanceTo(time: number): void {
    advanceTo(this.ctx, time);
  }

  /** When the next scheduled event happens, if any. */
  nextEventAt(): number | undefined {
    return this.ctx.state.events[0]?.at;
  }

  /** Advance until nothing is scheduled (or `limitMs` has passed); returns the virtual ms that passed. */
  runUntilIdle(limitMs = 24 * 3600 * 1000): number {
    const start = this.now;
    for (let next = this.nextEventAt(); next !== undefined && next - start <= limitMs; next = this.nextEventAt())
      this.advanceTo(next);
    return this.now - start;
  }

  /** The ports acting on this cluster's account, region and API server. Registers the cluster with the world. */
  forCluster(cluster: Cluster): ClusterPorts {
    const accountId = awsAccountId(cluster.infrastructureAccount);
    const known = this.ctx.state.clusters[cluster.id];
    this.ctx.state.clusters[cluster.id] = {
      id: cluster.id,
      name: clusterName(cluster),
      accountId,
      region: cluster.region,
      localId: cluster.localId,
      apiServerUrl: cluster.apiServerUrl,
      masterPools:
        cluster.provider === 'zalando-eks' ? [] : cluster.nodePools.filter(isMasterPool).map((pool) => pool.name),
      ...(cluster.provider === 'zalando-eks' ? { eks: true } : {}),
      ...(cluster.lifecycleStatus === 'decommission-requested' || cluster.lifecycleStatus === 'decommissioned'
        ? { decommissioning: true }
        : {}),
      ...(known?.leftoversSeeded ? { leftoversSeeded: true } : {}),
    };
    const account = ensureAccount(this.ctx, accountId, cluster.region);
    const leftovers = this.ctx.state.scenario.clusters[cluster.id]?.leftovers;
    if (leftovers && !known?.leftoversSeeded) {
      seedLeftovers(account, cluster.id, clusterName(cluster), leftovers);
      this.ctx.state.clusters[cluster.id] = { ...this.ctx.state.clusters[cluster.id]!, leftoversSeeded: true };
    }
    return {
      stacks: simStackDeployer(this.ctx, account, cluster.id),
      pools: simNodePoolBackend(this.ctx, cluster.id),
      kube: simKubeCluster(this.ctx, cluster.id, {
        server: cluster.apiServerUrl,
        ...optionalCaData(cluster),
      }),
      eks: simEksClusters(this.ctx, account, cluster.id),
      quotas: simAccountQuotas(this.ctx, account, cluster.id),
      lookups: simLookups(this.ctx, cluster.id),
      values: simValues(this.ctx, cluster.id),
      alarms: simHealthAlarms(this.ctx, cluster.id),
      leftovers: simLeftovers(this.ctx, account, cluster.id),
      nodeFiles: simNodeFiles(this.ctx, account, cluster.id),
    };
  }

  /** Torn down on purpose (`clm decommission`, or a cluster decommission-requested): lost pods are no PDB violations. */
  markDecommissioning(clusterId: string): void {
    const info = this.ctx.state.clusters[clusterId];
    if (info) this.ctx.state.clusters[clusterId] = { ...info, decommissioning: true };
  }

  /** Add faults while the world runs (same shape as the scenario's `faults`). */
  addFaults(faults: z.input<typeof Faults>): void {
    const parsed = Faults.parse(faults);
    const current = this.ctx.state.scenario.faults;
    current.apiErrors.push(...parsed.apiErrors);
    current.podsNeverReady.push(...parsed.podsNeverReady);
    current.stackFailures.push(...parsed.stackFailures);
    current.blockedEvictions.push(...parsed.blockedEvictions);
    // Worlds saved before alarms were modelled have none.
    current.alarms = [...(current.alarms ?? []), ...parsed.alarms];
  }
  /** Add live edits while the world runs (the scenario's `liveEdits` shape), each due at its `atSeconds`. */
  addLiveEdits = (edits: readonly z.input<typeof LiveEdit>[]): void => addLiveEdits(this.ctx, edits);

  /** These timings and this seed from now on (a rehearsal varies them); what is scheduled keeps its time. */
  retime = (timings: Partial<Scenario['timings']>, seed: number): void =>
    void (Object.assign(this.ctx.state.scenario.timings, timings), (this.ctx.state.rng = seedState(seed)));

  invariants(): Invariants {
    const { pdbViolations, nodesTerminatedTwice, details } = this.ctx.state.invariants;
    return { pdbViolations, nodesTerminatedTwice, details: [...details] };
  }

  /**
   * When each instance an Auto Scaling group launched in the account (12 digits) and region was launched (ms, oldest
   * first): what EC2's RunInstances bucket counted (`apiCalls()` counts `ec2.RunInstances` and its `.throttled`).
   */
  asgLaunches(accountId: string, region: string): number[] {
    const account = this.ctx.state.accounts[accountKey(accountId, region)];
    return account ? asgLaunchTimes(account) : [];
  }

  /** Calls per port method (`kube.evictPod`, `stacks.deploy`, ...) since the world was created or last reset. */
  apiCalls(): Record<string, number> {
    return { ...this.ctx.state.apiCalls };
  }

  resetApiCalls(): void {
    this.ctx.state.apiCalls = {};
  }

  /** The load balancers, security groups, volumes and interfaces the cluster has outside its stacks. */
  cloudResources(clusterId: string): CloudResourceRecord[] {
    const info = this.ctx.state.clusters[clusterId];
    return info
      ? structuredClone(cloudResourcesOf(this.ctx.state.accounts[`${info.accountId}/${info.region}`], clusterId))
      : [];
  }

  /** KMS Decrypt of a ciphertext blob of the simulated accounts, with an administrator's rights (for tests). */
  kmsDecrypt(ciphertext: Uint8Array): Uint8Array {
    return decrypt(this.ctx, ciphertext).plaintext;
  }

  describe(clusterId: string): ClusterSnapshot {
    return describeCluster(this.ctx, clusterId);
  }

  /** A deep copy of the whole state (what `save` writes). */
  snapshot(): WorldState {
    return structuredClone(this.ctx.state);
  }

  private startWorkloads(): void {
    for (const [clusterId, spec] of Object.entries(this.ctx.state.scenario.clusters)) {
      const kube = kubeFor(this.ctx, clusterId);
      Object.assign(kube.volumes, spec.volumeZones ?? {});
      const objects = [
        ...(spec.manifests as never[]),
        ...spec.workloads.map(workloadObjects),
        ...spec.pdbs.map(pdbObject),
      ];
      const namespaces = [
        ...new Set(
          objects
            .map((o) => (o as { metadata?: { namespace?: string } }).metadata?.namespace)
            .filter((n): n is string => !!n),
        ),
      ]
        .filter((name) => !kube.objects[`/Namespace//${name}`])
        .map(namespaceObject);
      // What ran before CLM, put there by another tool.
      applyObjects(this.ctx, kube, [...namespaces, ...objects], { fieldManager: 'scenario', dryRun: false });
    }
    settle(this.ctx);
  }
}
