import {
  channelOverrides,
  resolveClusterConfigVersion,
  splitConfigVersion,
} from '../../../lambdas/core/version/resolve-config-version';
import type { VersionResolver } from '../../../lambdas/core/version/resolve-config-version';
import { ConfigError } from '../../../lambdas/shared/errors';

/** A source that knows a few refs and counts its lookups. */
function source(name: string, refs: Record<string, string>): VersionResolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    calls,
    async resolveVersion(channel: string) {
      calls.push(channel);
      const version = refs[channel];
      if (!version) throw new ConfigError(`config source ${name}: unknown ref ${channel}`);
      return version;
    },
  };
}

const cluster = (configItems: Record<string, string> = {}, channel = 'main') => ({
  id: 'aws:123456789012:eu-central-1:kube-1',
  channel,
  configItems,
});

describe('resolveClusterConfigVersion', () => {
  it('uses the bare version id for a single source', async () => {
    const result = await resolveClusterConfigVersion(cluster(), [source('main', { main: 'aaa' })]);
    expect(result).toEqual({ id: 'aaa', sources: [{ name: 'main', channel: 'main', version: 'aaa' }] });
  });

  it('combines several sources as name=id;name=id in flag order', async () => {
    const sources = [source('main', { main: 'aaa' }), source('extra', { main: 'bbb' })];
    expect((await resolveClusterConfigVersion(cluster(), sources)).id).toBe('main=aaa;extra=bbb');
  });

  it('applies override_channel per source', async () => {
    const main = source('main', { main: 'aaa' });
    const extra = source('extra', { main: 'bbb', beta: 'ccc' });
    const result = await resolveClusterConfigVersion(cluster({ override_channel: 'extra=beta' }), [main, extra]);
    expect(result.id).toBe('main=aaa;extra=ccc');
    expect(extra.calls).toEqual(['beta']);
  });

  it('applies an override to a single source too', async () => {
    const result = await resolveClusterConfigVersion(cluster({ override_channel: 'main=beta' }), [
      source('main', { beta: 'ccc' }),
    ]);
    expect(result.id).toBe('ccc');
  });

  it('fails for an override naming an unknown source, naming the cluster and the item', async () => {
    const promise = resolveClusterConfigVersion(cluster({ override_channel: 'extar=beta' }), [
      source('main', {}),
      source('extra', {}),
    ]);
    await expect(promise).rejects.toThrow(ConfigError);
    await expect(promise).rejects.toThrow(
      'cluster aws:123456789012:eu-central-1:kube-1, field config_items.override_channel: config item override_channel "extar=beta": unknown config source "extar" (did you mean "extra"?); known sources: main, extra',
    );
  });

  it("lets an unknown ref fail with the source's error", async () => {
    await expect(resolveClusterConfigVersion(cluster({}, 'nope'), [source('main', {})])).rejects.toThrow(
      'config source main: unknown ref nope',
    );
  });

  it('resolves each distinct source and channel once when given a cache', async () => {
    const main = source('main', { main: 'aaa', beta: 'bbb' });
    const cache = new Map<string, Promise<string>>();
    for (let i = 0; i < 50; i++)
      await resolveClusterConfigVersion(cluster({}, i % 2 ? 'main' : 'beta'), [main], { cache });
    expect(main.calls.sort()).toEqual(['beta', 'main']);
  });

  it('does not cache failures', async () => {
    const main = source('main', {});
    const cache = new Map<string, Promise<string>>();
    await expect(resolveClusterConfigVersion(cluster(), [main], { cache })).rejects.toThrow();
    await expect(resolveClusterConfigVersion(cluster(), [main], { cache })).rejects.toThrow();
    expect(main.calls).toEqual(['main', 'main']);
  });
});

describe('channelOverrides', () => {
  it('parses source=ref entries, ignoring blanks and spaces', () => {
    expect([...channelOverrides(cluster({ override_channel: 'a=x, b = y ,' }))]).toEqual([
      ['a', 'x'],
      ['b', 'y'],
    ]);
  });

  it('is empty without the item', () => {
    expect(channelOverrides(cluster()).size).toBe(0);
  });

  it.each(['a', 'a=', '=x', 'a=x,a=y'])('rejects the malformed value %j, naming the item', (value) => {
    expect(() => channelOverrides(cluster({ override_channel: value }))).toThrow(
      /field config_items\.override_channel: config item override_channel/,
    );
  });
});

describe('splitConfigVersion', () => {
  it('inverts the combined id', () => {
    expect([...splitConfigVersion('main=aaa;extra=bbb', ['main', 'extra'])!]).toEqual([
      ['main', 'aaa'],
      ['extra', 'bbb'],
    ]);
    expect([...splitConfigVersion('aaa', ['main'])!]).toEqual([['main', 'aaa']]);
  });

  it('returns undefined when the id does not fit the sources', () => {
    expect(splitConfigVersion('main=aaa', ['main', 'extra'])).toBeUndefined();
    expect(splitConfigVersion('other=aaa;extra=bbb', ['main', 'extra'])).toBeUndefined();
  });
});
