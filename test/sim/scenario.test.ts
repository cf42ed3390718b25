import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SimulatedWorld, loadScenarioFile, parseScenario, parseScenarioYaml } from '../../lambdas/sim';
import {
  ClmError,
  KubeApiError,
  ThrottledError,
  TransientApiError,
  ValidationError,
} from '../../lambdas/shared/errors';
import { PORT_CALLS } from '../../lambdas/sim/port-calls';
import { clusterRef, runningCluster, testCluster } from './fixtures';

const EXAMPLES = join(__dirname, '../../examples/scenarios');

describe('simulation scenarios', () => {
  it('fills every default for an empty scenario', () => {
    expect(parseScenario({})).toEqual({
      seed: 1,
      startTime: '2026-01-01T00:00:00.000Z',
      timings: {
        stackCreateSeconds: 60,
        stackUpdateSeconds: 45,
        stackDeleteSeconds: 30,
        instanceBootSeconds: 90,
        instanceTerminateSeconds: 30,
        nodeReadySeconds: 0,
        podStartSeconds: 10,
        podTerminationSeconds: 30,
        volumeDetachSeconds: 20,
      },
      images: [],
      nodeIncidents: [],
      quotas: { runInstancesBurst: 1000, runInstancesPerSecond: 2, onDemandVcpus: {} },
      liveEdits: [],
      clusters: {},
      accounts: [],
      faults: { apiErrors: [], podsNeverReady: [], stackFailures: [], blockedEvictions: [], alarms: [] },
    });
  });

  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')))(
    'example %s is valid and starts a world',
    (file) => {
      const scenario = loadScenarioFile(join(EXAMPLES, file));
      const world = SimulatedWorld.fromScenarioFile(join(EXAMPLES, file));

      expect(world.scenario).toEqual(scenario);
      // Each names something the world starts with: clusters' workloads, or what an account holds
      expect(Object.keys(scenario.clusters).length + scenario.accounts.length).toBeGreaterThan(0);
      for (const account of scenario.accounts) {
        const stacks = world.snapshot().accounts[`${account.account}/${account.region}`]!.stacks;
        for (const seed of account.stacks)
          expect([seed.name, stacks[seed.name]?.status]).toEqual([seed.name, 'CREATE_COMPLETE']);
      }
    },
  );

  it('names the file, line and field of each mistake', () => {
    const text =
      'seed: 1\ntimings:\n  podStartSeconds: -1\n  bootSeconds: 3\nfaults:\n  apiErrors:\n    - on: kube\n      error: boom\n';

    let error: unknown;
    try {
      parseScenarioYaml(text, 'scenarios/bad.yaml');
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^scenarios\/bad\.yaml:3: timings\.podStartSeconds: /),
        expect.stringMatching(/^scenarios\/bad\.yaml:2: timings: .*bootSeconds/),
        expect.stringMatching(/^scenarios\/bad\.yaml:7: faults\.apiErrors\[0\]\.on: expected <port>\.<method>/),
        expect.stringMatching(/^scenarios\/bad\.yaml:8: faults\.apiErrors\[0\]\.error: /),
      ]),
    );
  });
});

describe('scenario faults that could never apply are refused when the scenario is loaded', () => {
  const issuesOf = (text: string, knownClusters?: readonly string[]): readonly string[] => {
    try {
      parseScenarioYaml(text, 'scenarios/typo.yaml', knownClusters ? { knownClusters } : {});
    } catch (error) {
      if (error instanceof ValidationError) return error.issues;
      throw error;
    }
    return [];
  };

  it('a fault on a call the port does not have names the file, the fault and the calls of that port', () => {
    const text =
      'faults:\n  apiErrors:\n    - { on: kube.listNodes, error: throttle }\n    - { on: kube.evictPods, error: throttle }\n';

    // The list of calls is the port's own (lambdas/sim/port-calls.ts): checked by a pattern, not spelled out again.
    expect(issuesOf(text)).toEqual([
      expect.stringMatching(
        /^scenarios\/typo\.yaml:4: faults\.apiErrors\[1\]\.on: unknown call "kube\.evictPods" \(it would never fire\); the calls of kube: ready, serverVersion, apply, .*\bevictPod, .*scaleDeployment/,
      ),
    ]);
  });

  it('a fault or workloads naming a cluster the registry does not have names the file, the fault and the known clusters', () => {
    const text = [
      'clusters:',
      '  kube-1: {}',
      '  kube-9: {}',
      'faults:',
      '  apiErrors:',
      '    - { on: stacks.deploy, error: throttle, cluster: kube-1 }',
      '    - { on: stacks.deploy, error: throttle, cluster: kube-2 }',
      '  podsNeverReady:',
      '    - { cluster: kube-3 }',
      '  blockedEvictions:',
      '    - { cluster: kube-4, pdb: web, untilSeconds: 60 }',
      '',
    ].join('\n');
    const known = ['kube-1', 'kube-5'];

    expect(issuesOf(text, known)).toEqual([
      'scenarios/typo.yaml:3: clusters.kube-9: workloads for unknown cluster "kube-9" (it would never apply); the registry\'s clusters: kube-1, kube-5',
      'scenarios/typo.yaml:7: faults.apiErrors[1].cluster: a fault on unknown cluster "kube-2" (it would never apply); the registry\'s clusters: kube-1, kube-5',
      'scenarios/typo.yaml:9: faults.podsNeverReady[0].cluster: a fault on unknown cluster "kube-3" (it would never apply); the registry\'s clusters: kube-1, kube-5',
      'scenarios/typo.yaml:11: faults.blockedEvictions[0].cluster: a fault on unknown cluster "kube-4" (it would never apply); the registry\'s clusters: kube-1, kube-5',
    ]);
    expect(issuesOf(text)).toEqual([]); // without a registry to check against, any id is taken
  });

  it('the calls a fault may name are exactly the methods of the simulated ports', async () => {
    const { world, ports } = await runningCluster();
    const methods = (port: object, except: string[] = []) =>
      Object.keys(port)
        .filter((name) => !except.includes(name))
        .sort();

    expect(Object.keys(PORT_CALLS).sort()).toEqual([
      'artifacts',
      'eks',
      'kube',
      'leftovers',
      'lookups',
      'nodeFiles',
      'pools',
      'quotas',
      'stacks',
      'values',
    ]);
    const names = ['stacks', 'pools', 'kube', 'lookups', 'values', 'leftovers', 'nodeFiles', 'eks', 'quotas'] as const;
    for (const name of names) expect([name, methods(ports[name])]).toEqual([name, [...PORT_CALLS[name]!].sort()]);
    expect(methods(world.artifacts, ['urlFor', 'locationOf'])).toEqual([...PORT_CALLS.artifacts!].sort());
  });
});

describe('fault injection', () => {
  it('throws the configured error class on a port method, after N good calls, N times', async () => {
    const { world, ports } = await runningCluster();
    world.addFaults({
      apiErrors: [
        { on: 'kube.listNodes', error: 'throttle', times: 2, after: 1 },
        { on: 'kube.listPods', error: 'transient' },
        { on: 'kube.listPdbs', error: 'fatal' },
        { on: 'pools.getPool', error: 'fatal' },
      ],
    });
    const outcome = async (call: () => Promise<unknown>) =>
      call().then(
        () => 'ok',
        (e: Error) => e.constructor.name,
      );

    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await outcome(() => ports.kube.listNodes()));

    expect(results).toEqual(['ok', 'ThrottledError', 'ThrottledError', 'ok']);
    await expect(ports.kube.listPods()).rejects.toBeInstanceOf(TransientApiError);
    await expect(ports.kube.listPdbs()).rejects.toBeInstanceOf(KubeApiError);
    await expect(ports.pools.getPool(clusterRef(testCluster()), 'default-worker')).rejects.toBeInstanceOf(ClmError);
    expect(world.apiCalls()['kube.listNodes']).toBe(4);
  });

  it('only affects the named cluster when a fault names one', async () => {
    const { world, ports } = await runningCluster({
      faults: { apiErrors: [{ on: 'stacks.describe', error: 'throttle', cluster: 'other', times: 5 }] },
    });

    const other = world.forCluster(testCluster({ id: 'other', localId: 'other' }));

    await expect(ports.stacks.describe('kube-1')).resolves.toBeDefined();
    await expect(other.stacks.describe('kube-1')).rejects.toBeInstanceOf(ThrottledError);
  });

  it('a throttled deploy changes nothing', async () => {
    const world = SimulatedWorld.create({ faults: { apiErrors: [{ on: 'stacks.deploy', error: 'throttle' }] } });
    const { stacks } = world.forCluster(testCluster());

    await expect(
      stacks.deploy({ name: 's', templateBody: 'Resources:\n  T:\n    Type: AWS::SNS::Topic\n', tags: {} }),
    ).rejects.toBeInstanceOf(ThrottledError);
    expect(await stacks.describe('s')).toBeUndefined();
  });
});
