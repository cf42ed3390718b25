import * as z from 'zod';
import { lambdaHandler, type PortModuleLoader } from '../../../lambdas/runtime/lambda/lambda-handler';
import type { KubeCluster } from '../../../lambdas/ports/kube-cluster';
import type { Registry } from '../../../lambdas/ports/registry';
import { kubeFactory } from '../../../lambdas/runtime/cloud/kube-factory';
import { TOKENS_TTL_MS } from '../../../lambdas/runtime/lambda/secret-tokens';
import { ConfigError, ERROR_NAMES, StackBusyError, ThrottledError } from '../../../lambdas/shared/errors';
import type { Logger } from '../../../lambdas/shared/logger';
import { defineTask } from '../../../lambdas/tasks/define-task';
import { testCluster } from '../../sim/fixtures';

/** A Logger that records what it was asked to do. */
function recordingLogger() {
  const calls: { method: string; args: unknown[] }[] = [];
  const record =
    (method: string) =>
    (...args: unknown[]) => {
      calls.push({ method, args });
    };
  const logger = {
    appendKeys: record('appendKeys'),
    resetKeys: record('resetKeys'),
    info: record('info'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
  };
  return { logger: logger as unknown as Logger, calls };
}

const Input = z.object({
  state: z.object({ clusterId: z.string() }),
  executionId: z.string(),
  stateName: z.string(),
  fail: z.string().optional(),
});

/** A Prepare-named task that reads the registry description and fails on request. */
const task = defineTask({
  name: 'Prepare',
  description: 'test task',
  input: Input,
  output: z.object({ cluster: z.string(), registry: z.string() }),
  ports: { registry: 'read' },
  step: async (input, ports) => {
    if (input.fail === 'busy') throw new StackBusyError('Stack kube-1 is UPDATE_IN_PROGRESS');
    return { cluster: input.state.clusterId, registry: ports.registry.description };
  },
});

/** The port module of the registry, whose load can fail, counting its loads. */
function wiring(failures: Error[] = []): { wired: PortModuleLoader[]; loads: () => number } {
  let loads = 0;
  const load: PortModuleLoader = async () => {
    loads += 1;
    const failure = failures.shift();
    if (failure) throw failure;
    return { portFactories: async () => ({ registry: () => ({ description: 'fake://registry' }) as Registry }) };
  };
  return { wired: [load], loads: () => loads };
}

const payload = (extra: Record<string, unknown> = {}) => ({
  state: { clusterId: 'aws:123456789012:eu-central-1:kube-1' },
  executionId: 'arn:aws:states:eu-central-1:123456789012:execution:clm:1',
  stateName: 'Prepare',
  ...extra,
});

describe('lambdaHandler', () => {
  it('runs its task with the wired ports and puts the correlation keys on the log lines of that invocation', async () => {
    // Arrange
    const { logger, calls } = recordingLogger();
    const handler = lambdaHandler(task, wiring().wired, { logger, env: {} });

    // Act
    const result = await handler(payload());

    // Assert
    expect(result).toEqual({ cluster: 'aws:123456789012:eu-central-1:kube-1', registry: 'fake://registry' });
    expect(calls.map((c) => c.method)).toEqual(['appendKeys', 'info', 'resetKeys']);
    expect(calls[0].args[0]).toEqual({
      executionId: 'arn:aws:states:eu-central-1:123456789012:execution:clm:1',
      stateName: 'Prepare',
      clusterId: 'aws:123456789012:eu-central-1:kube-1',
    });
  });

  it('adds the pool of a rollout step to the keys', async () => {
    // Arrange
    const { logger, calls } = recordingLogger();
    const handler = lambdaHandler(task, wiring().wired, { logger, env: {} });

    // Act
    await handler(payload({ state: { clusterId: 'c-1', pool: 'default-worker' } })).catch(() => undefined);

    // Assert
    expect(calls[0].args[0]).toEqual(expect.objectContaining({ clusterId: 'c-1', pool: 'default-worker' }));
  });

  it('loads the wiring once per container, on the first invocation', async () => {
    // Arrange
    const { logger } = recordingLogger();
    const { wired, loads } = wiring();
    const handler = lambdaHandler(task, wired, { logger, env: {} });
    const before = loads();

    // Act
    for (let i = 0; i < 3; i++) await handler(payload());

    // Assert
    expect({ before, after: loads() }).toEqual({ before: 0, after: 1 });
  });

  it('rethrows a task error with its name intact, logs it and clears the keys', async () => {
    // Arrange
    const { logger, calls } = recordingLogger();
    const handler = lambdaHandler(task, wiring().wired, { logger, env: {} });

    // Act
    const error = await handler(payload({ fail: 'busy' })).catch((e: unknown) => e as Error);

    // Assert
    expect(error).toBeInstanceOf(StackBusyError);
    expect((error as Error).name).toBe(ERROR_NAMES.StackBusyError);
    expect(calls.map((c) => c.method)).toEqual(['appendKeys', 'info', 'error', 'resetKeys']);
    expect(calls[2].args).toEqual(['Prepare failed', error]);
  });

  it('rejects a payload that does not match the task contract with InvalidTaskInputError', async () => {
    // Arrange
    const handler = lambdaHandler(task, wiring().wired, { logger: recordingLogger().logger, env: {} });

    // Act
    const error = await handler({ stateName: 'Prepare' }).catch((e: unknown) => e as Error);

    // Assert
    expect((error as Error).name).toBe(ERROR_NAMES.InvalidTaskInputError);
    expect((error as Error).message).toMatch(/^Prepare: invalid input: state: /);
  });

  it('rethrows a failed wiring load with its name and loads again on the next invocation', async () => {
    // Arrange
    const { wired, loads } = wiring([
      new ThrottledError('Secrets Manager GetSecretValue clm-tokens: throttled by AWS'),
    ]);
    const handler = lambdaHandler(task, wired, { logger: recordingLogger().logger, env: {} });

    // Act
    const first = await handler(payload()).catch((e: unknown) => e as Error);
    const second = await handler(payload());

    // Assert
    expect((first as Error).name).toBe(ERROR_NAMES.ThrottledError);
    expect(second).toEqual(expect.objectContaining({ registry: 'fake://registry' }));
    expect(loads()).toBe(2);
  });

  it('fails the first call with a ConfigError naming a declared port that no loaded module builds', async () => {
    // Arrange
    const handler = lambdaHandler(task, [], { logger: recordingLogger().logger, env: {} });

    // Act
    const error = await handler(payload()).catch((e: unknown) => e as Error);

    // Assert
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'Prepare: ports.registry has no factory in this runtime (declared ports: registry)',
    );
  });

  it("gives the step the invocation's deadline: out of time once less than the safety margin remains", async () => {
    // Arrange: a task with a 120 s timeout (margin 30 s) that reports what its context says
    const { logger } = recordingLogger();
    const timed = defineTask({
      name: 'ApplyManifests',
      description: 'test task',
      input: Input,
      output: z.object({ outOfTime: z.boolean() }),
      ports: { registry: 'read' },
      lambda: { timeoutSeconds: 120 },
      step: async (_input, _ports, context) => ({ outOfTime: context.outOfTime() }),
    });
    const handler = lambdaHandler(timed, wiring().wired, { logger, env: {} });

    // Act
    const early = await handler(payload(), { getRemainingTimeInMillis: () => 30_001 });
    const late = await handler(payload(), { getRemainingTimeInMillis: () => 29_999 });

    // Assert
    expect([early, late]).toEqual([{ outOfTime: false }, { outOfTime: true }]);
  });

  describe('a warm container', () => {
    afterEach(() => jest.useRealTimers());

    it('builds its ports again with the new tokens once a rotated tokens secret is read again (after TOKENS_TTL_MS)', async () => {
      // Arrange: a registry module that builds its port with the tokens secret's registryToken
      jest.useFakeTimers({ now: 1_000_000 });
      const secret = { text: JSON.stringify({ registryToken: 'old' }) };
      const reads: string[] = [];
      const read = async (id: string) => {
        reads.push(id);
        return secret.text;
      };
      const tokenRegistry: PortModuleLoader = async () => ({
        portFactories: async ({ tokens }) => {
          const { registryToken } = await tokens(async () => read);
          return { registry: () => ({ description: `token ${registryToken}` }) as Registry };
        },
      });
      const handler = lambdaHandler(task, [tokenRegistry], {
        logger: recordingLogger().logger,
        env: { CLM_SECRET_ARN: 'clm-tokens' },
      });

      // Act
      const first = await handler(payload());
      secret.text = JSON.stringify({ registryToken: 'rotated' });
      const withinTtl = await handler(payload());
      jest.setSystemTime(1_000_000 + TOKENS_TTL_MS);
      const afterTtl = await handler(payload());
      const next = await handler(payload());

      // Assert
      expect([first, withinTtl, afterTtl, next].map((r) => (r as { registry: string }).registry)).toEqual([
        'token old',
        'token old',
        'token rotated',
        'token rotated',
      ]);
      expect(reads).toEqual(['clm-tokens', 'clm-tokens']);
    });

    it("talks to a cluster's new API server once the registry moved it", async () => {
      // Arrange: a task that asks the cluster's kube port where it is
      const where = defineTask({
        name: 'ApplyManifests',
        description: 'test task',
        input: Input.extend({ server: z.string() }),
        output: z.object({ server: z.string() }),
        ports: { kube: 'write' },
        step: async (input, ports) => ({
          server: (ports.forCluster(testCluster({ apiServerUrl: input.server })).kube as unknown as { server: string })
            .server,
        }),
      });
      const connects: string[] = [];
      const kubeModule: PortModuleLoader = async () => ({
        portFactories: async () => ({
          cluster: {
            kube: kubeFactory({}, (cluster) => {
              connects.push(cluster.apiServerUrl);
              return { server: cluster.apiServerUrl } as unknown as KubeCluster;
            }),
          },
        }),
      });
      const handler = lambdaHandler(where, [kubeModule], { logger: recordingLogger().logger, env: {} });

      // Act
      const servers = [];
      for (const server of ['https://old.example.org', 'https://old.example.org', 'https://new.example.org'])
        servers.push(((await handler(payload({ server }))) as { server: string }).server);

      // Assert
      expect(servers).toEqual(['https://old.example.org', 'https://old.example.org', 'https://new.example.org']);
      expect(connects).toEqual(['https://old.example.org', 'https://new.example.org']);
    });
  });
});
