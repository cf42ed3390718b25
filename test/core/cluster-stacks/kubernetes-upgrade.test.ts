import {
  checkKubernetesUpgrade,
  kubeletSkew,
  liveMinor,
} from '../../../lambdas/core/cluster-stacks/kubernetes-upgrade';
import { ConfigError } from '../../../lambdas/shared/errors';

const WHERE = { clusterId: 'c1', field: 'config_items.cluster_stack' };
const v = (minor: number, major = 1) => ({ major, minor });
const n = (name: string, minor: number) => ({ name, version: v(minor) });

describe('checkKubernetesUpgrade', () => {
  it('allows one minor at a time, control plane first', () => {
    expect(checkKubernetesUpgrade({ from: v(30), to: v(31), rollsNodes: true }, WHERE)).toBe(
      'Kubernetes upgrade 1.30 → 1.31: control plane (master pools) first, then the workers',
    );
  });

  it('has nothing to say when the minor stays or the cluster is new', () => {
    expect(checkKubernetesUpgrade({ from: v(30), to: v(30), rollsNodes: false }, WHERE)).toBeUndefined();
    expect(checkKubernetesUpgrade({ to: v(31), rollsNodes: true }, WHERE)).toBeUndefined();
  });

  it.each([
    ['a skipped minor', { from: v(30), to: v(32), rollsNodes: true }, /one minor at a time: upgrade to 1\.31 first/],
    ['a downgrade', { from: v(31), to: v(30), rollsNodes: true }, /a downgrade is not supported/],
    ['a major change', { from: v(30), to: v(0, 2), rollsNodes: true }, /major version/],
    ['--apply-only', { from: v(30), to: v(31), rollsNodes: false }, /--apply-only is refused/],
    [
      'a node too far behind',
      { from: v(30), to: v(31), nodes: [n('ip-1', 27)], rollsNodes: true },
      /node ip-1 \(kubelet 1\.27\) would be 4 minors behind the API server 1\.31 \(at most 3 since Kubernetes 1\.28\)/,
    ],
    [
      'a node newer than the API server',
      { from: v(30), to: v(31), nodes: [n('ip-1', 32)], rollsNodes: true },
      /node ip-1 \(kubelet 1\.32\) would be newer than the API server 1\.31/,
    ],
    [
      'a node two minors behind before 1.28 (skew 2)',
      { from: v(26), to: v(27), nodes: [n('ip-1', 26), n('ip-2', 24)], rollsNodes: true },
      /: Kubernetes 1\.26 → 1\.27: node ip-2 \(kubelet 1\.24\) would be 3 minors behind the API server 1\.27 \(at most 2 before Kubernetes 1\.28\)/,
    ],
  ])('refuses %s with an error naming the cluster and field', (_what, check, message) => {
    let thrown: unknown;
    try {
      checkKubernetesUpgrade(check, WHERE);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toMatch(message);
    expect((thrown as ConfigError).location).toEqual(WHERE);
  });
});

describe('the skew against live node versions', () => {
  it('names every node outside the skew, grouped by minor, and none inside it', () => {
    const nodes = [n('ip-a', 31), n('ip-c', 27), n('ip-b', 27), n('ip-d', 28), n('ip-e', 26)];
    expect(() => checkKubernetesUpgrade({ from: v(31), to: v(32), nodes, rollsNodes: true }, WHERE)).toThrow(
      'Kubernetes 1.31 → 1.32: node ip-e (kubelet 1.26) would be 6 minors behind the API server 1.32 (at most 3 since Kubernetes 1.28); roll them onto the Kubernetes minor the cluster runs first; nodes ip-b, ip-c (kubelet 1.27) would be 5 minors behind',
    );
  });

  it('allows nodes up to the skew behind the new API server (an earlier interrupted upgrade left them there)', () => {
    const nodes = [n('master', 30), n('worker-old', 28)];
    expect(checkKubernetesUpgrade({ from: v(30), to: v(31), nodes, rollsNodes: true }, WHERE)).toMatch(/1\.30 → 1\.31/);
    // Before 1.28 the same distance is one too many.
    const old = [n('master', 25), n('worker-old', 23)];
    expect(() => checkKubernetesUpgrade({ from: v(25), to: v(26), nodes: old, rollsNodes: true }, WHERE)).toThrow(
      /node worker-old \(kubelet 1\.23\) would be 3 minors behind the API server 1\.26 \(at most 2 before/,
    );
  });

  it('reads vendor version strings and knows the skew per version', () => {
    expect(liveMinor('v1.30.5-eks-1234abc')).toEqual(v(30));
    expect(liveMinor('v1.31.0+k3s1')).toEqual(v(31));
    expect(liveMinor('1.29.2')).toEqual(v(29));
    expect(liveMinor('banana')).toBeUndefined();
    expect([kubeletSkew(v(27)), kubeletSkew(v(28)), kubeletSkew(v(31))]).toEqual([2, 3, 3]);
  });
});
