import { planRollStep } from '../../../lambdas/core/rollout/plan-roll-step';
import { NOW, poolNode, old, fresh, snapshot, progress, draining, policy, ids } from './roll-fixtures';

describe('planRollStep', () => {
  it('scales out to base + surge and cordons nothing while no new capacity is Ready (maxUnavailable 0)', () => {
    const plan = planRollStep(snapshot(old(6, { marked: false })), progress(6), policy(), NOW);

    expect(plan.done).toBe(false);
    expect(plan.scaleTo).toBe(9);
    expect(plan.cordon).toEqual([]);
    expect(ids(plan.mark)).toHaveLength(6);
    expect(plan.waitingFor).toMatch(/new node\(s\) to become Ready before draining/);
  });

  it('surge is capped by the outdated nodes left', () => {
    const plan = planRollStep(snapshot([...old(2), ...fresh(4)], 4), progress(4), policy(), NOW);

    expect(plan.scaleTo).toBe(6);
  });

  it('cordons as many outdated nodes as new Ready nodes cover, up to the surge', () => {
    const plan = planRollStep(snapshot([...old(6), ...fresh(3)], 9), progress(6), policy(), NOW);

    expect(plan.scaleTo).toBeUndefined();
    expect(plan.cordon).toHaveLength(3);
    expect(plan.mark).toEqual([]);
  });

  it('new nodes still booting do not count as capacity', () => {
    const plan = planRollStep(
      snapshot([...old(6), ...fresh(1), ...fresh(2, { booting: true }, 'i-boot')], 9),
      progress(6),
      policy(),
      NOW,
    );

    expect(ids(plan.cordon)).toHaveLength(1);
  });

  it('maxUnavailable > 0 allows cordoning without surge capacity', () => {
    const plan = planRollStep(
      snapshot(old(4)),
      progress(4),
      policy({ update_max_surge: '0', update_max_unavailable: '1' }),
      NOW,
    );

    expect(plan.scaleTo).toBeUndefined();
    expect(plan.cordon).toHaveLength(1);
  });

  it('never exceeds the concurrency cap of surge + maxUnavailable, counting nodes already draining', () => {
    const nodes = [...old(6), ...fresh(5)];
    const plan = planRollStep(snapshot(nodes, 9), progress(6, { nodes: draining('i-old0', 'i-old1') }), policy(), NOW);

    expect(ids(plan.drain)).toEqual(['i-old0', 'i-old1']);
    expect(plan.cordon).toHaveLength(1);
  });

  describe('canary', () => {
    const canary = policy({ update_canary: 'true', update_canary_soak: '10m', update_max_surge: '3' });

    it('cordons the first node alone', () => {
      const plan = planRollStep(snapshot([...old(4), ...fresh(3)], 7), progress(4), canary, NOW);

      expect(ids(plan.cordon)).toEqual(['i-old0']);
    });

    it('cordons nothing more while the canary drains', () => {
      const plan = planRollStep(
        snapshot([...old(4), ...fresh(3)], 7),
        progress(4, { nodes: draining('i-old0') }),
        canary,
        NOW,
      );

      expect(plan.cordon).toEqual([]);
      expect(ids(plan.drain)).toEqual(['i-old0']);
    });

    it('waits for the soak after the canary was replaced, then goes in a batch', () => {
      const after = progress(4, {
        replaced: 1,
        firstReplacedAt: NOW,
        nodes: { 'i-old0': { instanceId: 'i-old0', state: 'terminated' } },
      });
      const nodes = [...old(3, {}, 'i-rest'), ...fresh(4)];

      const soaking = planRollStep(snapshot(nodes, 7), after, canary, NOW + 5 * 60_000);
      const soaked = planRollStep(snapshot(nodes, 7), after, canary, NOW + 10 * 60_000);

      expect(soaking.cordon).toEqual([]);
      expect(soaking.waitingFor).toMatch(/^canary soak until 2024-05-01T12:10:00.000Z$/);
      expect(soaked.cordon).toHaveLength(3);
    });
  });

  describe('nodes with volumes', () => {
    it('pairs a node with volumes with a new Ready node in the same AZ', () => {
      const nodes = [
        poolNode('i-a', { outdated: true, volumes: true, az: 'a' }),
        poolNode('i-b', { outdated: true, volumes: true, az: 'b' }),
        poolNode('i-new-b', { az: 'b' }),
      ];
      const plan = planRollStep(
        snapshot(nodes, 3),
        progress(2, { baseDesired: 2 }),
        policy({ update_max_surge: '1' }),
        NOW,
      );

      expect(ids(plan.cordon)).toEqual(['i-b']);
    });

    it('does not pair two stateful nodes with one new node', () => {
      const nodes = [
        poolNode('i-b1', { outdated: true, volumes: true, az: 'b' }),
        poolNode('i-b2', { outdated: true, volumes: true, az: 'b' }),
        poolNode('i-new-b', { az: 'b' }),
      ];
      const plan = planRollStep(
        snapshot(nodes, 3),
        progress(2, { nodes: draining('i-b1') }),
        policy({ update_max_surge: '2' }),
        NOW,
      );

      expect(plan.cordon).toEqual([]);
    });

    it('scales up one more when no new node is in the AZ of the unmatched nodes', () => {
      const nodes = [...old(2, { volumes: true, az: 'a' }), poolNode('i-new-b', { az: 'b' })];
      const plan = planRollStep(snapshot(nodes, 3), progress(2), policy({ update_max_surge: '1' }), NOW);

      expect(plan.cordon).toEqual([]);
      expect(plan.scaleTo).toBe(4);
      expect(plan.waitingFor).toBe('a new node in the zone of 2 node(s) with volumes');
    });

    it('does not scale up again while the extra node is still booting', () => {
      const nodes = [
        ...old(2, { volumes: true, az: 'a' }),
        poolNode('i-new-b', { az: 'b' }),
        poolNode('i-boot', { booting: true, az: 'a' }),
      ];
      const plan = planRollStep(snapshot(nodes, 4), progress(2), policy({ update_max_surge: '1' }), NOW);

      expect(plan.scaleTo).toBeUndefined();
    });

    it('a node with volumes paired with a new node in its zone goes before stateless nodes (CLM §7.4 step 6)', () => {
      const nodes = [
        poolNode('i-plain', { outdated: true, az: 'a' }),
        poolNode('i-vol', { outdated: true, volumes: true, az: 'a' }),
        poolNode('i-new', { az: 'a' }),
      ];
      const plan = planRollStep(snapshot(nodes, 3), progress(2), policy({ update_max_surge: '1' }), NOW);

      expect(ids(plan.cordon)).toEqual(['i-vol']);
    });

    it('stateless nodes take the slot when no new node is in the zone of the node with volumes', () => {
      const nodes = [
        poolNode('i-vol', { outdated: true, volumes: true, az: 'b' }),
        poolNode('i-plain', { outdated: true, az: 'a' }),
        poolNode('i-new', { az: 'a' }),
      ];
      const plan = planRollStep(snapshot(nodes, 3), progress(2), policy({ update_max_surge: '1' }), NOW);

      expect(ids(plan.cordon)).toEqual(['i-plain']);
    });
  });

  describe('done', () => {
    it('is done when no outdated node remains and every desired node is Ready', () => {
      expect(planRollStep(snapshot(fresh(3)), progress(3), policy(), NOW).done).toBe(true);
    });

    it('is not done while a desired node is not Ready yet', () => {
      const plan = planRollStep(
        snapshot([...fresh(2), ...fresh(1, { booting: true }, 'i-boot')]),
        progress(3),
        policy(),
        NOW,
      );

      expect(plan.done).toBe(false);
      expect(plan.waitingFor).toBe('1 new node(s) to become Ready');
    });

    it('is not done while an outdated node is left', () => {
      expect(planRollStep(snapshot([...fresh(3), ...old(1)], 3), progress(3), policy(), NOW).done).toBe(false);
    });
  });

  it('adopts outdated nodes cordoned by a human first', () => {
    const nodes = [...old(2), poolNode('i-human', { outdated: true, unschedulable: true }), ...fresh(1)];
    const plan = planRollStep(snapshot(nodes, 4), progress(3), policy({ update_max_surge: '1' }), NOW);

    expect(ids(plan.cordon)).toEqual(['i-human']);
  });

  it('never takes again, nor counts, a node it terminated that a read still lists as in service', () => {
    const gone = poolNode('i-gone', { outdated: true, unschedulable: true });
    const nodes = [...old(2), gone, ...fresh(2)];
    const terminated = { 'i-gone': { instanceId: 'i-gone', state: 'terminated' as const, terminatedAt: NOW - 1000 } };
    const plan = planRollStep(
      snapshot(nodes, 5),
      progress(3, { nodes: terminated }),
      policy({ update_max_surge: '2' }),
      NOW,
    );

    // nor counted as capacity: 4 nodes are left for a base of 3, so one more goes, not two
    expect(ids(plan.cordon)).toEqual(['i-old0']);
    expect(ids(plan.drain)).toEqual([]);
  });

  it('spot pools never surge: they drain one node at a time without new capacity', () => {
    const spot = policy({}, true);
    const plan = planRollStep(snapshot(old(3)), progress(3), spot, NOW);

    expect(spot.maxSurge).toBe(0);
    expect(plan.scaleTo).toBeUndefined();
    expect(plan.cordon).toHaveLength(1);
  });

  it('spot pools take nodes with volumes at once even without a new node in their zone (they never scale out)', () => {
    const spot = policy({}, true);
    const nodes = [
      poolNode('i-old-vol', { outdated: true, marked: true, volumes: true, az: 'eu-central-1b' }),
      ...fresh(1, { az: 'eu-central-1a' }),
    ];

    const plan = planRollStep(snapshot(nodes), progress(2), spot, NOW);

    expect(plan.scaleTo).toBeUndefined();
    expect(ids(plan.cordon)).toEqual(['i-old-vol']);
  });

  it('does not cordon instances that have no node and are not InService yet', () => {
    const booting = { ...poolNode('i-old-boot', { outdated: true, booting: true }) };
    const plan = planRollStep(snapshot([booting, ...fresh(1)], 2), progress(1), policy({ update_max_surge: '1' }), NOW);

    expect(plan.cordon).toEqual([]);
  });
});
