import {
  describeLayerPlan,
  layerPlan,
  skipReason,
  type StackState,
} from '../../../lambdas/core/cluster-stacks/layer-changes';

const V1: StackState = {
  name: 'aws/default/1-30',
  version: 'v1',
  kubernetes: 'v1.30.5',
  components: { clusterAddon: 'v1', nodeImage: 'v1' },
  digests: { clusterClass: 'sha256:c1', clusterAddon: 'sha256:a1', nodeImage: 'sha256:n1' },
  rest: 'hash;other=abc',
};

function next(change: Partial<Omit<StackState, 'digests'>> & { digests?: Partial<StackState['digests']> }): StackState {
  return { ...V1, version: 'v2', ...change, digests: { ...V1.digests, ...change.digests } };
}

const NOTHING = { mainStack: false, cfManifestStacks: false, poolStacks: false, rollPools: false, manifests: false };
const EVERYTHING = { mainStack: true, cfManifestStacks: true, poolStacks: true, rollPools: true, manifests: true };

describe('layerPlan: the changed layers decide the steps', () => {
  it('cluster-addon alone: apply only — no stack deployed, no node rolled', () => {
    const plan = layerPlan(
      V1,
      next({ components: { clusterAddon: 'v2', nodeImage: 'v1' }, digests: { clusterAddon: 'sha256:a2' } }),
    );
    expect(plan.changed).toEqual(['clusterAddon']);
    expect(plan.steps).toEqual({ ...NOTHING, manifests: true });
    expect(skipReason(plan, 'mainStack')).toBe(
      'skipped: layer cluster-class unchanged (aws/default/1-30@v1 → aws/default/1-30@v2)',
    );
    expect(skipReason(plan, 'manifests')).toBeUndefined();
  });

  it('node-image alone: pool stacks and rolls, manifests skipped', () => {
    const plan = layerPlan(
      V1,
      next({ components: { clusterAddon: 'v1', nodeImage: 'v2' }, digests: { nodeImage: 'sha256:n2' } }),
    );
    expect(plan.changed).toEqual(['nodeImage']);
    expect(plan.steps).toEqual({ ...NOTHING, poolStacks: true, rollPools: true });
    expect(skipReason(plan, 'manifests')).toMatch(/^skipped: layers cluster-addon and cluster-class unchanged/);
  });

  it('cluster-class alone (its content; it has no component version): stacks, rolls and manifests', () => {
    const plan = layerPlan(V1, next({ digests: { clusterClass: 'sha256:c2' } }));
    expect(plan.changed).toEqual(['clusterClass']);
    expect(plan.steps).toEqual(EVERYTHING);
  });

  it('all layers together: every step', () => {
    const plan = layerPlan(
      V1,
      next({
        components: { clusterAddon: 'v2', nodeImage: 'v2' },
        digests: { clusterClass: 'sha256:c2', clusterAddon: 'sha256:a2', nodeImage: 'sha256:n2' },
      }),
    );
    expect(plan.changed).toEqual(['clusterClass', 'clusterAddon', 'nodeImage']);
    expect(plan.steps).toEqual(EVERYTHING);
    expect(plan.allBecause).toBeUndefined();
  });

  it('no layer changed: nothing runs', () => {
    const plan = layerPlan(V1, { ...V1 });
    expect(plan.changed).toEqual([]);
    expect(plan.steps).toEqual(NOTHING);
    expect(describeLayerPlan(plan)).toContain('layers changed: none');
  });

  it('a component version bumped without a content change still runs its steps', () => {
    const plan = layerPlan(V1, next({ components: { clusterAddon: 'v2', nodeImage: 'v1' } }));
    expect(plan.changed).toEqual(['clusterAddon']);
  });

  it('every layer counts as changed when an --apply-only run left the nodes behind', () => {
    const plan = layerPlan(V1, { ...V1 }, { nodesBehind: true });
    expect(plan.steps).toEqual(EVERYTHING);
    expect(plan.allBecause).toMatch(/--apply-only/);
  });

  it.each([
    ['nothing is recorded of the current stack', undefined, V1],
    ['the stack directory changes (a Kubernetes minor)', V1, { ...V1, name: 'aws/default/1-31' }],
    ['something outside the stack changed', V1, { ...V1, rest: 'other-hash;other=abc' }],
  ])('every layer counts as changed when %s', (_why, previous, target) => {
    const plan = layerPlan(previous, target);
    expect(plan.changed).toEqual(['clusterClass', 'clusterAddon', 'nodeImage']);
    expect(plan.steps).toEqual(EVERYTHING);
    expect(plan.allBecause).toBeTruthy();
  });
});
