import { resolveFleetTargets } from '../../../lambdas/core/dispatch/fleet-targets';
import { decommissionVersion } from '../../../lambdas/core/model/update-decision';
import { clusterHash } from '../../../lambdas/core/version/cluster-hash';
import type { VersionResolver } from '../../../lambdas/core/version/resolve-config-version';
import { ConfigError, TransientApiError } from '../../../lambdas/shared/errors';
import { COMMIT_A, COMMIT_B, fleetCluster } from './fleet-fixtures';

function resolver(refs: Record<string, string>): VersionResolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'main',
    calls,
    async resolveVersion(channel) {
      calls.push(channel);
      const sha = refs[channel];
      if (!sha) throw new ConfigError(`unknown ref "${channel}"`);
      return sha;
    },
  };
}

describe('resolveFleetTargets', () => {
  it('resolves each channel once for the whole fleet', async () => {
    const clusters = Array.from({ length: 300 }, (_, i) =>
      fleetCluster(`k${i}`, 'test', { channel: i % 3 ? 'main' : 'beta' }),
    );
    const main = resolver({ main: COMMIT_A, beta: COMMIT_B });
    const targets = await resolveFleetTargets(clusters, [main]);
    expect(main.calls.sort()).toEqual(['beta', 'main']);
    expect(targets.get(clusters[1].id)).toEqual({
      ok: true,
      clusterHash: clusterHash(clusters[1]),
      configVersion: COMMIT_A,
      targetVersion: `${COMMIT_A}#${clusterHash(clusters[1])}`,
    });
    expect(targets.get(clusters[0].id)).toMatchObject({ ok: true, configVersion: COMMIT_B });
  });

  it('keeps a failure per cluster instead of failing the fleet, and leaves decommissioned clusters out', async () => {
    const ok = fleetCluster('ok');
    const typo = fleetCluster('typo', 'test', { channel: 'mian' });
    const badOverride = fleetCluster('bad', 'test', { configItems: { override_channel: 'nope=main' } });
    const gone = fleetCluster('gone', 'test', { lifecycleStatus: 'decommissioned' });
    const targets = await resolveFleetTargets([ok, typo, badOverride, gone], [resolver({ main: COMMIT_A })]);
    expect(targets.get(ok.id)?.ok).toBe(true);
    expect(targets.get(typo.id)).toMatchObject({
      ok: false,
      error: { name: 'ConfigError', message: 'unknown ref "mian"' },
    });
    expect(targets.get(badOverride.id)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/unknown config source "nope"/) },
    });
    expect(targets.has(gone.id)).toBe(false);
  });

  it('fails the pass when the source cannot be reached, instead of blaming every cluster', async () => {
    const down: VersionResolver = {
      name: 'main',
      resolveVersion: async () => {
        throw new TransientApiError('config source main: cannot reach the git server: ECONNREFUSED');
      },
    };
    await expect(resolveFleetTargets([fleetCluster('a'), fleetCluster('b')], [down])).rejects.toThrow(
      TransientApiError,
    );
  });

  it('names decommission targets as Prepare does', () => {
    expect(decommissionVersion('v#h')).toBe('decommission#v#h');
  });
});
