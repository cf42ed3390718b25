import type { Cluster } from '../../../lambdas/core/model/cluster';
import { testCluster } from '../../support/test-cluster';
import { clusterHash } from '../../../lambdas/core/version/cluster-hash';
import { needsUpdate, parseVersion, targetVersion } from '../../../lambdas/core/version/cluster-version';

const cluster: Cluster = testCluster({ nodePools: [] });

describe('targetVersion', () => {
  it('joins the config version and the cluster hash with #', () => {
    expect(targetVersion('0123abcd', cluster)).toBe(`0123abcd#${clusterHash(cluster)}`);
  });
});

describe('parseVersion', () => {
  it('splits into config version and cluster hash', () => {
    expect(parseVersion('main=abc;extra=dir-0123#hash')).toEqual({
      configVersion: 'main=abc;extra=dir-0123',
      clusterHash: 'hash',
    });
  });

  it.each(['', 'no-hash-sign', 'a#b#c'])('treats %j as the empty version', (value) => {
    expect(parseVersion(value)).toBeUndefined();
  });
});

describe('needsUpdate', () => {
  const target = targetVersion('sha1', cluster);

  it('is false when current equals target', () => {
    expect(needsUpdate(target, target)).toBe(false);
  });

  it('is true when the config version or the cluster hash differs', () => {
    expect(needsUpdate(targetVersion('sha0', cluster), target)).toBe(true);
    expect(needsUpdate(targetVersion('sha1', { ...cluster, channel: 'beta' }), target)).toBe(true);
  });

  it('is true when the current version is empty or unparsable', () => {
    expect(needsUpdate('', target)).toBe(true);
    expect(needsUpdate('garbage', target)).toBe(true);
  });
});
