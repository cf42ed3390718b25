import { percentile, summarise, type RunObservation } from '../../../lambdas/core/rehearsal/rehearsal-report';
import {
  pendingReason,
  type NodeFacts,
  type PendingFacts,
  type PendingPod,
} from '../../../lambdas/core/rehearsal/pending-reasons';
import { learnedTimings, stackUpdateDurations } from '../../../lambdas/core/rehearsal/learned-timings';
import { podRequests } from '../../../lambdas/core/kube/pod-resources';
import { formatRehearsal, rehearsalSummary } from '../../../lambdas/core/rehearsal/format-rehearsal';
import type { StackEvent } from '../../../lambdas/core/stacks/stack-events';
import { nodePoolsAtLimitOf } from '../../../lambdas/core/rehearsal/nodepool-limits';

const GIB = 1024 ** 3;

function run(seed: number, seconds: number, extra: Partial<RunObservation> = {}): RunObservation {
  return {
    seed,
    status: 'SUCCEEDED',
    durationSeconds: seconds,
    pools: [{ pool: 'workers', seconds: seconds - 100, nodes: 4, batches: 2 }],
    pdbBlocks: [],
    forced: [],
    pending: [],
    surge: [{ pool: 'workers', instances: 3, vcpu: 6 }],
    transitions: 50,
    ...extra,
  };
}

const TIMINGS = learnedTimings({ stackUpdates: [], boots: [], readies: [], pods: [] });

describe('a rehearsal summary', () => {
  it('gives nearest-rank percentiles of the runs', () => {
    expect(percentile([300, 100, 200, 500, 400], 50)).toBe(300);
    expect(percentile([300, 100, 200, 500, 400], 90)).toBe(500);
    expect(percentile([], 50)).toBe(0);
  });

  it('merges what the runs saw: durations, PDB blocks with their pods, Pending pods, surge and cost', () => {
    // Arrange
    const block = (seconds: number, pod: string) => ({ namespace: 'pay', name: 'api', seconds, pods: [pod] });
    const runs = [
      run(1, 1000, { pdbBlocks: [block(600, 'pay/api-1')] }),
      run(2, 1200, { pdbBlocks: [block(900, 'pay/api-2')], forced: ['pay/api-2'] }),
      run(3, 1100, { pending: [{ pod: 'db/db-0', seconds: 400, reason: 'volume: …' }] }),
    ];

    // Act
    const summary = summarise(runs, { timings: TIMINGS, notes: [] });

    // Assert
    expect(summary.durationSeconds).toEqual({ p50: 1100, p90: 1200 });
    expect(summary.pools).toEqual([
      { pool: 'workers', nodes: 4, batches: 2, durationSeconds: { p50: 1000, p90: 1100 } },
    ]);
    expect(summary.pdbBlocks).toEqual([
      { namespace: 'pay', name: 'api', runs: 2, seconds: { p50: 600, p90: 900 }, pods: ['pay/api-1', 'pay/api-2'] },
    ]);
    expect(summary.forcedDrains).toEqual([{ pod: 'pay/api-2', runs: 1 }]);
    expect(summary.pending).toEqual([
      { pod: 'db/db-0', reason: 'volume: …', runs: 1, seconds: { p50: 400, p90: 400 } },
    ]);
    expect(summary.surge).toMatchObject({ instances: 3, vcpu: 6 });
    expect(summary.dollars).toBeCloseTo(50 * 0.000025);
    expect(rehearsalSummary(summary)).toBe(
      'rehearsed 3x: about 18m20s (p90 20m), 1 PDB(s) block (longest 10m), 1 pod(s) forced, 1 pod(s) Pending',
    );
    expect(formatRehearsal(summary)[0]).toBe(
      'rehearsal (3 runs in the twin, timings varied): the update takes 18m20s (p90 20m)',
    );
  });

  it('counts failed runs apart and summarises the runs that succeeded', () => {
    const failed: RunObservation = { ...run(2, 50), status: 'FAILED', error: 'RolloutError: health gate' };
    const summary = summarise([run(1, 1000), failed], { timings: TIMINGS, notes: [] });
    expect(summary).toMatchObject({ runs: 2, failedRuns: 1, errors: ['RolloutError: health gate'] });
    expect(summary.durationSeconds.p50).toBe(1000);
  });
});

describe('why a pod stays Pending', () => {
  const node = (name: string, zone: string, extra: Partial<NodeFacts> = {}): NodeFacts => ({
    name,
    zone,
    ready: true,
    unschedulable: false,
    labels: {},
    taints: [],
    allocatable: { cpuMillis: 1930, memoryBytes: 6 * GIB },
    requested: { cpuMillis: 0, memoryBytes: 0 },
    ...extra,
  });
  const pod = (extra: Partial<PendingPod> = {}): PendingPod => ({
    key: 'default/p',
    namespace: 'default',
    labels: {},
    requests: { cpuMillis: 500, memoryBytes: GIB },
    nodeSelector: {},
    tolerations: [],
    volumeZones: [],
    ...extra,
  });

  it('names capacity when the nodes it may use have no room', () => {
    const nodes = [node('a', 'z1', { requested: { cpuMillis: 1800, memoryBytes: 0 } })];
    expect(pendingReason(pod(), { pending: [], nodes, placed: [] })).toBe(
      'capacity: no node has room for 500m CPU and 1024 MiB',
    );
  });

  it('names the volume zone when no usable node is there', () => {
    const nodes = [node('a', 'z1'), node('b', 'z2', { unschedulable: true })];
    expect(pendingReason(pod({ volumeZones: ['z2'] }), { pending: [], nodes, placed: [] })).toBe(
      'volume: its volume lives in z2, where no node it may use is Ready',
    );
  });

  it('names the node selector and taints when no node allows it', () => {
    const nodes = [node('a', 'z1', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] })];
    expect(pendingReason(pod(), { pending: [], nodes, placed: [] })).toMatch(/^node: /);
    const tolerant = pod({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] });
    expect(pendingReason(tolerant, { pending: [], nodes, placed: [] })).toMatch(/^scheduling: /);
  });

  it('names the Karpenter NodePool at its limits that would take the pod, and only that one', () => {
    // Arrange: the NodePool burst holds 2 nodes of 2 vCPU and is limited to 4 vCPU; web is limited but has room
    const burst = { apiVersion: 'karpenter.sh/v1', kind: 'NodePool' };
    const pools = [
      {
        ...burst,
        metadata: { name: 'burst' },
        spec: { limits: { cpu: '4' }, template: { metadata: { labels: { 'node.kubernetes.io/node-pool': 'burst' } } } },
        status: { resources: { cpu: '4', memory: '16Gi', nodes: '2' } },
      },
      {
        ...burst,
        metadata: { name: 'web' },
        spec: { limits: { cpu: '100', nodes: '10' } },
        status: { resources: { cpu: '4', memory: '16Gi', nodes: '2' } },
      },
    ];
    const nodePoolsAtLimit = nodePoolsAtLimitOf(pools);
    const full = [node('a', 'z1', { requested: { cpuMillis: 1800, memoryBytes: 0 } })];
    const facts = { pending: [], nodes: full, placed: [], nodePoolsAtLimit };

    // Act / Assert
    expect(nodePoolsAtLimit.map((p) => [p.name, p.limit])).toEqual([['burst', 'cpu 4 of 4']]);
    expect(pendingReason(pod({ nodeSelector: { 'node.kubernetes.io/node-pool': 'burst' } }), facts)).toBe(
      'karpenter: NodePool burst is at its limits (cpu 4 of 4): no node is launched for it',
    );
    expect(pendingReason(pod({ nodeSelector: { 'node.kubernetes.io/node-pool': 'other' } }), facts)).toMatch(/^node: /);
    expect(pendingReason(pod(), { ...facts, nodePoolsAtLimit: [] })).toMatch(/^capacity: /);
  });
});

describe('why a pod stays Pending: its required constraints', () => {
  const facts = (placed: PendingFacts['placed']): PendingFacts => ({
    pending: [],
    placed,
    nodes: ['a', 'b'].map((name) => ({
      name,
      zone: 'z1',
      ready: true,
      unschedulable: false,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': 'z1' },
      taints: [],
      allocatable: { cpuMillis: 1930, memoryBytes: 6 * GIB },
      requested: { cpuMillis: 0, memoryBytes: 0 },
    })),
  });
  const web = (affinity: unknown): PendingPod => ({
    key: 'default/web-3',
    namespace: 'default',
    labels: { app: 'web' },
    requests: { cpuMillis: 100, memoryBytes: GIB },
    nodeSelector: {},
    tolerations: [],
    volumeZones: [],
    affinity,
  });

  it('names pod anti-affinity when every node with room runs a pod it must keep apart from', () => {
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    const running = (nodeName: string) => ({
      namespace: 'default',
      labels: { app: 'web' },
      nodeName,
      terminating: false,
    });
    expect(pendingReason(web(anti), facts([running('a'), running('b')]))).toMatch(/^pod anti-affinity: /);
    expect(pendingReason(web(anti), facts([running('a')]))).toMatch(/^scheduling: /);
  });

  it('names node affinity when no node matches its required terms', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'disktype', operator: 'Exists' }] }],
        },
      },
    };
    expect(pendingReason(web(affinity), facts([]))).toMatch(/^node: .*node affinity/);
  });
});

describe('timings learned from the cluster', () => {
  const event = (status: string, at: string): StackEvent => ({
    eventId: at,
    stackName: 's',
    logicalResourceId: 's',
    resourceType: 'AWS::CloudFormation::Stack',
    timestamp: at,
    resourceStatus: status,
  });

  it('reads stack update durations from the stack own events, newest first', () => {
    const events = [
      event('UPDATE_COMPLETE', '2026-01-01T01:05:00Z'),
      event('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', '2026-01-01T01:04:50Z'),
      event('UPDATE_IN_PROGRESS', '2026-01-01T01:00:00Z'),
      event('CREATE_COMPLETE', '2026-01-01T00:10:00Z'),
      event('CREATE_IN_PROGRESS', '2026-01-01T00:00:00Z'),
    ];
    expect(stackUpdateDurations(events)).toEqual([300]);
    expect(stackUpdateDurations(events, 'CREATE')).toEqual([600]);
  });

  it('takes medians of what was seen and defaults for the rest, saying which', () => {
    const t = learnedTimings({ stackUpdates: [100, 300, 200], boots: [120, 140], readies: [], pods: [] });
    expect(t).toMatchObject({ stackUpdateSeconds: 200, instanceBootSeconds: 130, nodeReadySeconds: 20 });
    expect(t.sources).toEqual({
      stackUpdateSeconds: 'history',
      instanceBootSeconds: 'history',
      nodeReadySeconds: 'default',
    });
  });

  it('sums a pod containers requests, at least its largest init container', () => {
    const spec = {
      containers: [
        { resources: { requests: { cpu: '250m', memory: '1Gi' } } },
        { resources: { requests: { cpu: '0.5' } } },
      ],
      initContainers: [{ resources: { requests: { cpu: '2', memory: '64Mi' } } }],
    };
    expect(podRequests(spec)).toEqual({ cpuMillis: 2000, memoryBytes: GIB });
  });
});
