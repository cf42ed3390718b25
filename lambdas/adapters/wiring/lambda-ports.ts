/**
 * What each Lambda handler wires: only the adapters its task uses (TASK_PORTS), loaded with `import()` on the first
 * invocation. esbuild keeps a dynamically imported module out of the handler's module init (its SDK `require`s run
 * when the import runs), and drops the modules of the wirings a handler does not import, so each bundle holds, and
 * each container loads, only its own task's adapters.
 */
import type { TaskName } from '../../tasks/cluster-update-tasks';
import { lambdaEnvironment } from './lambda-environment';
import type { LambdaEnvironment } from './lambda-environment';
import type { TaskPortFactories } from './lazy-ports';
import { cachedTokens } from './secret-tokens';
import type { ClmTokens } from './secret-tokens';

export interface WiringContext {
  readonly env: LambdaEnvironment;
  /** The tokens secret (`CLM_SECRET_ARN`), read on the first call and kept for the container's life. */
  tokens(): Promise<ClmTokens>;
}

/** One per container: the environment read once, the secret read at most once. */
export function wiringContext(env: Readonly<Record<string, string | undefined>>): WiringContext {
  const settings = lambdaEnvironment(env);
  return {
    env: settings,
    tokens: cachedTokens(settings.secretArn, async () =>
      (await import('./secrets-manager-reader')).secretsManagerReader(settings),
    ),
  };
}

export interface TaskWiring<N extends TaskName> {
  readonly task: N;
  /** Load the task's adapters and return how to build each port it uses (built on first access, see lazy-ports.ts). */
  load(context: WiringContext): Promise<TaskPortFactories<N>>;
}

export const preparePorts: TaskWiring<'Prepare'> = {
  task: 'Prepare',
  async load({ env, tokens }) {
    const [stores, registry, sources, t] = await Promise.all([
      import('./store-ports'),
      import('./registry-port'),
      import('./source-ports'),
      tokens(),
    ]);
    return {
      ...stores.storeFactories(env),
      registry: registry.registryFactory(env, t),
      sources: sources.sourcesFactory(env, t),
      cluster: {},
    };
  },
};

export const renderConfigPorts: TaskWiring<'RenderConfig'> = {
  task: 'RenderConfig',
  async load({ env, tokens }) {
    const [stores, sources, cloud, templates, t] = await Promise.all([
      import('./store-ports'),
      import('./source-ports'),
      import('./cloud-ports'),
      import('./template-port'),
      tokens(),
    ]);
    const aws = cloud.cloudFactories(env);
    return {
      ...stores.storeFactories(env),
      sources: sources.sourcesFactory(env, t),
      templates: templates.templatesFactory(aws.lookupsFor),
      secrets: aws.secrets,
      cluster: { values: aws.values },
    };
  },
};

export const renderClusterResourcesPorts: TaskWiring<'RenderClusterResources'> = {
  task: 'RenderClusterResources',
  async load({ env }) {
    const [stores, cloud, templates] = await Promise.all([
      import('./store-ports'),
      import('./cloud-ports'),
      import('./template-port'),
    ]);
    const aws = cloud.cloudFactories(env);
    return {
      ...stores.storeFactories(env),
      templates: templates.templatesFactory(aws.lookupsFor),
      secrets: aws.secrets,
      cluster: { values: aws.values },
    };
  },
};

export const deployStacksPorts: TaskWiring<'DeployStacks'> = {
  task: 'DeployStacks',
  async load({ env }) {
    const [stores, cloud] = await Promise.all([import('./store-ports'), import('./cloud-ports')]);
    return { ...stores.storeFactories(env), cluster: { stacks: cloud.cloudFactories(env).stacks } };
  },
};

export const deleteStacksPorts: TaskWiring<'DeleteStacks'> = {
  task: 'DeleteStacks',
  async load({ env }) {
    const [stores, cloud] = await Promise.all([import('./store-ports'), import('./cloud-ports')]);
    return { ...stores.storeFactories(env), cluster: { stacks: cloud.cloudFactories(env).stacks } };
  },
};

export const waitForApiServerPorts: TaskWiring<'WaitForApiServer'> = {
  task: 'WaitForApiServer',
  async load({ env, tokens }) {
    const [stores, kube, t] = await Promise.all([import('./store-ports'), import('./kube-port'), tokens()]);
    return { ...stores.storeFactories(env), cluster: { kube: kube.kubeFactory(t) } };
  },
};

export const scaleDownControllersPorts: TaskWiring<'ScaleDownControllers'> = {
  task: 'ScaleDownControllers',
  async load({ env, tokens }) {
    const [stores, kube, t] = await Promise.all([import('./store-ports'), import('./kube-port'), tokens()]);
    return { ...stores.storeFactories(env), cluster: { kube: kube.kubeFactory(t) } };
  },
};

export const applyManifestsPorts: TaskWiring<'ApplyManifests'> = {
  task: 'ApplyManifests',
  async load({ env, tokens }) {
    const [stores, cloud, kube, t] = await Promise.all([
      import('./store-ports'),
      import('./cloud-ports'),
      import('./kube-port'),
      tokens(),
    ]);
    return {
      ...stores.storeFactories(env),
      cluster: { stacks: cloud.cloudFactories(env).stacks, kube: kube.kubeFactory(t) },
    };
  },
};

export const removeDeletedPoolsPorts: TaskWiring<'RemoveDeletedPools'> = {
  task: 'RemoveDeletedPools',
  async load({ env, tokens }) {
    const [stores, cloud, kube, t] = await Promise.all([
      import('./store-ports'),
      import('./cloud-ports'),
      import('./kube-port'),
      tokens(),
    ]);
    const aws = cloud.cloudFactories(env);
    return {
      ...stores.storeFactories(env),
      cluster: { stacks: aws.stacks, pools: aws.pools, kube: kube.kubeFactory(t) },
    };
  },
};

export const rollNodePoolPorts: TaskWiring<'RollNodePool'> = {
  task: 'RollNodePool',
  async load({ env, tokens }) {
    const [stores, cloud, kube, t] = await Promise.all([
      import('./store-ports'),
      import('./cloud-ports'),
      import('./kube-port'),
      tokens(),
    ]);
    return {
      ...stores.storeFactories(env),
      cluster: { pools: cloud.cloudFactories(env).pools, kube: kube.kubeFactory(t) },
    };
  },
};

export const finalizePorts: TaskWiring<'Finalize'> = {
  task: 'Finalize',
  async load({ env, tokens }) {
    const [stores, registry, t] = await Promise.all([import('./store-ports'), import('./registry-port'), tokens()]);
    return { ...stores.storeFactories(env), registry: registry.registryFactory(env, t), cluster: {} };
  },
};

export const recordProblemPorts: TaskWiring<'RecordProblem'> = {
  task: 'RecordProblem',
  async load({ env, tokens }) {
    const [stores, registry, t] = await Promise.all([import('./store-ports'), import('./registry-port'), tokens()]);
    const { progress, clock } = stores.storeFactories(env);
    return { progress, clock, registry: registry.registryFactory(env, t), cluster: {} };
  },
};
