import {
  effectiveConfigItems,
  inheritConfigItems,
  withEffectiveConfigItems,
} from '../../../lambdas/core/config/effective-config-items';
import type { RenderRequest, TemplateEngine } from '../../../lambdas/ports/template-engine';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { FakeDecrypter, cluster, engine, pool, snapshot } from '../render/fixtures';

/** Records what each render saw, around the real engine. */
class RecordingEngine implements TemplateEngine {
  readonly requests: RenderRequest[] = [];
  private readonly inner = engine();
  render(request: RenderRequest): Promise<string> {
    this.requests.push(request);
    return this.inner.render(request);
  }
}

describe('effectiveConfigItems', () => {
  it('merges defaults of all sources in order, registry items winning', async () => {
    // Arrange
    const main = snapshot('main', { 'cluster/config-defaults.yaml': 'a: main\nb: main\nc: main\n' });
    const extra = snapshot('extra', { 'cluster/config-defaults.yaml': 'b: extra\nd: extra\n' });
    const c = cluster({ configItems: { c: 'registry' }, nodePools: [] });

    // Act
    const result = await effectiveConfigItems({
      cluster: c,
      snapshots: [main, extra],
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });

    // Assert
    expect(result.configItems).toEqual({ a: 'main', b: 'extra', c: 'registry', d: 'extra' });
  });

  it('renders defaults with the cluster but without its config items, Values or NodePool', async () => {
    // Arrange
    const recording = new RecordingEngine();
    const main = snapshot('main', {
      'cluster/config-defaults.yaml':
        '{{#if (eq Cluster.Environment "production")}}grace: 6h{{else}}grace: 10m{{/if}}\n',
    });
    const c = cluster({ environment: 'production', configItems: { secret_item: 'x' } });

    // Act
    const result = await effectiveConfigItems({
      cluster: c,
      snapshots: [main],
      engine: recording,
      decrypter: new FakeDecrypter(),
    });

    // Assert
    expect(result.configItems.grace).toBe('6h');
    const context = recording.requests[0].context as any;
    expect(context.Cluster.ConfigItems).toEqual({});
    expect(context.Values).toEqual({});
    expect(context.NodePool).toBeNull();
    expect(recording.requests[0].template.path).toBe('main/cluster/config-defaults.yaml');
  });

  it('fails when defaults try to read config items (they are empty there, as in CLM)', async () => {
    const main = snapshot('main', { 'cluster/config-defaults.yaml': 'x: {{Cluster.ConfigItems.team}}\n' });
    const act = effectiveConfigItems({
      cluster: cluster({ configItems: { team: 'a' } }),
      snapshots: [main],
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });
    await expect(act).rejects.toThrow(
      /main\/cluster\/config-defaults\.yaml:1: "Cluster\.ConfigItems\.team" is not defined/,
    );
  });

  it('decrypts aws:kms: values from the registry and from defaults, and nothing else', async () => {
    // Arrange
    const decrypter = new FakeDecrypter();
    const main = snapshot('main', {
      'cluster/config-defaults.yaml': 'from_defaults: aws:kms:cba\nplain: aws:kmsnot\n',
    });
    const c = cluster({
      configItems: { from_registry: 'aws:kms:zyx' },
      nodePools: [pool({ configItems: { pool_secret: 'aws:kms:abc' } })],
    });

    // Act
    const result = await effectiveConfigItems({ cluster: c, snapshots: [main], engine: engine(), decrypter });

    // Assert
    expect(result.configItems).toMatchObject({ from_defaults: 'abc', from_registry: 'xyz', plain: 'aws:kmsnot' });
    expect(decrypter.calls.sort()).toEqual(['cba', 'zyx']);
    // Pool items are not decrypted (CLM); the pool inherits the decrypted cluster items.
    expect(result.nodePools[0].configItems).toMatchObject({ pool_secret: 'aws:kms:abc', from_registry: 'xyz' });
  });

  it('names the config item when decryption fails', async () => {
    const act = effectiveConfigItems({
      cluster: cluster({ configItems: { db_password: 'aws:kms:bad' } }),
      snapshots: [snapshot('main', {})],
      engine: engine(),
      decrypter: new FakeDecrypter('bad'),
    });
    await expect(act).rejects.toThrow(ConfigError);
    await expect(
      effectiveConfigItems({
        cluster: cluster({ configItems: { db_password: 'aws:kms:bad' } }),
        snapshots: [snapshot('main', {})],
        engine: engine(),
        decrypter: new FakeDecrypter('bad'),
      }),
    ).rejects.toThrow(
      'cluster aws:123456789012:eu-central-1:kube-1, field config_items.db_password: cannot decrypt config item "db_password": AccessDeniedException: not allowed to use the key',
    );
  });

  it('lets retryable decrypter errors through unchanged (Step Functions retries them)', async () => {
    const throttled = {
      decrypt: async () => {
        throw new ThrottledError('Rate exceeded');
      },
    };
    const act = effectiveConfigItems({
      cluster: cluster({ configItems: { s: 'aws:kms:x' } }),
      snapshots: [snapshot('main', {})],
      engine: engine(),
      decrypter: throttled,
    });
    await expect(act).rejects.toBeInstanceOf(ThrottledError);
  });

  it('lets pools inherit every cluster item they do not set', async () => {
    const c = cluster({
      configItems: { a: 'cluster', b: 'cluster' },
      nodePools: [pool({ name: 'p1', configItems: { b: 'pool' } }), pool({ name: 'p2' })],
    });
    const result = await effectiveConfigItems({
      cluster: c,
      snapshots: [snapshot('main', { 'cluster/config-defaults.yaml': 'd: default\n' })],
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });
    expect(result.nodePools).toEqual([
      { name: 'p1', configItems: { a: 'cluster', b: 'pool', d: 'default' } },
      { name: 'p2', configItems: { a: 'cluster', b: 'cluster', d: 'default' } },
    ]);
  });

  it('applies the items to the cluster and its pools', async () => {
    const c = cluster({ configItems: { a: '1' } });
    const effective = await effectiveConfigItems({
      cluster: c,
      snapshots: [snapshot('main', {})],
      engine: engine(),
      decrypter: new FakeDecrypter(),
    });
    const applied = withEffectiveConfigItems(c, effective);
    expect(applied.configItems).toEqual({ a: '1' });
    expect(applied.nodePools.map((p) => p.configItems)).toEqual([{ a: '1' }, { a: '1' }]);
  });
});

describe('inheritConfigItems', () => {
  it('keeps the pool value and sorts the keys', () => {
    expect(Object.keys(inheritConfigItems({ z: '1', a: '1' }, { m: '2', a: '2' }))).toEqual(['a', 'm', 'z']);
    expect(inheritConfigItems({ a: '1' }, { a: '2' })).toEqual({ a: '2' });
  });
});
