import { LAYERS, LAYER_DIRECTORIES, type Layer } from './stack-layers';

/** What a run records about the stack a cluster runs (in the run's pinned cluster artefact). */
export interface StackState {
  /** `aws/default/1-30`. */
  readonly name: string;
  /** The stack version, `v4`. */
  readonly version: string;
  readonly kubernetes: string;
  readonly components: { readonly clusterAddon: string; readonly nodeImage: string };
  readonly digests: Readonly<Record<Layer, string>>;
  /** The cluster's registry entry (its hash without the stack pin items) and the other sources' versions. */
  readonly rest: string;
}

/** The steps of a cluster update that the layers drive. */
export interface StackSteps {
  readonly mainStack: boolean;
  readonly cfManifestStacks: boolean;
  readonly poolStacks: boolean;
  readonly rollPools: boolean;
  readonly manifests: boolean;
}
export type StackStep = keyof StackSteps;

/** Which layers drive each step: a step runs when one of its layers changed. */
export const STEP_LAYERS: Readonly<Record<StackStep, readonly Layer[]>> = {
  mainStack: ['clusterClass'],
  cfManifestStacks: ['clusterClass'],
  poolStacks: ['clusterClass', 'nodeImage'],
  rollPools: ['clusterClass', 'nodeImage'],
  // Manifests may read the stack outputs the cluster class defines, so a class change re-applies them too.
  manifests: ['clusterAddon', 'clusterClass'],
};

export interface LayerPlan {
  /** `aws/default/1-30@v4`, or undefined when the cluster runs no recorded stack. */
  readonly from?: string;
  readonly to: string;
  readonly changed: readonly Layer[];
  /** Why every layer counts as changed, when it does. */
  readonly allBecause?: string;
  readonly steps: StackSteps;
}

/**
 * The layers that changed from the stack a cluster runs to its target, and so the steps that run. A layer
 * changed when its component version or its content (digest) changed; the cluster class has no component
 * version of its own, so its content decides. Every layer counts as changed when nothing is known of the
 * current stack, when the stack itself changes (another stack or Kubernetes directory), or when anything
 * outside the stack changed (the registry entry, another config source), or when an `--apply-only` run left the
 * nodes behind the version the cluster reports.
 */
export function layerPlan(
  previous: StackState | undefined,
  target: StackState,
  options: { readonly nodesBehind?: boolean } = {},
): LayerPlan {
  const to = `${target.name}@${target.version}`;
  const all = (allBecause: string): LayerPlan => ({
    ...(previous ? { from: `${previous.name}@${previous.version}` } : {}),
    to,
    changed: [...LAYERS],
    allBecause,
    steps: stepsFor(LAYERS),
  });
  if (!previous) return all('nothing is recorded of the stack the cluster runs');
  if (options.nodesBehind) return all('an --apply-only run left the nodes behind the version the cluster reports');
  if (previous.name !== target.name) return all(`the stack changes from ${previous.name} to ${target.name}`);
  if (previous.rest !== target.rest) return all('the registry entry or another config source changed');
  const changed = LAYERS.filter(
    (layer) =>
      previous.digests[layer] !== target.digests[layer] ||
      (layer !== 'clusterClass' && previous.components[layer] !== target.components[layer]),
  );
  return { from: `${previous.name}@${previous.version}`, to, changed, steps: stepsFor(changed) };
}

export function stepsFor(changed: readonly Layer[]): StackSteps {
  const runs = (step: StackStep) => STEP_LAYERS[step].some((layer) => changed.includes(layer));
  return {
    mainStack: runs('mainStack'),
    cfManifestStacks: runs('cfManifestStacks'),
    poolStacks: runs('poolStacks'),
    rollPools: runs('rollPools'),
    manifests: runs('manifests'),
  };
}

/** `skipped: layer cluster-addon unchanged (aws/default/1-30@v4 → v5)` for a step that does not run, else undefined. */
export function skipReason(plan: LayerPlan, step: StackStep): string | undefined {
  if (plan.steps[step]) return undefined;
  const layers = STEP_LAYERS[step].map((l) => LAYER_DIRECTORIES[l]);
  const what = layers.length === 1 ? `layer ${layers[0]}` : `layers ${layers.join(' and ')}`;
  return `skipped: ${what} unchanged (${plan.from ?? 'new'} → ${plan.to})`;
}

/** One line for people: which layers changed and which steps are skipped. */
export function describeLayerPlan(plan: LayerPlan): string {
  const changed = plan.changed.length ? plan.changed.map((l) => LAYER_DIRECTORIES[l]).join(', ') : 'none';
  const skipped = (Object.keys(plan.steps) as StackStep[]).filter((s) => !plan.steps[s]);
  const because = plan.allBecause ? ` (all: ${plan.allBecause})` : '';
  return `cluster stack ${plan.from ?? 'none'} → ${plan.to}: layers changed: ${changed}${because}; steps skipped: ${
    skipped.length ? skipped.map((s) => STEP_TITLES[s]).join(', ') : 'none'
  }`;
}

export const STEP_TITLES: Readonly<Record<StackStep, string>> = {
  mainStack: 'main stack',
  cfManifestStacks: 'cf-manifest stacks',
  poolStacks: 'node pool stacks',
  rollPools: 'node rolls',
  manifests: 'manifests and deletions',
};
