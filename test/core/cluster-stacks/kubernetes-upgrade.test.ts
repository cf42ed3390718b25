import { checkKubernetesUpgrade } from '../../../lambdas/core/cluster-stacks/kubernetes-upgrade';
import { ConfigError } from '../../../lambdas/shared/errors';

const WHERE = { clusterId: 'c1', field: 'config_items.cluster_stack' };
const v = (minor: number, major = 1) => ({ major, minor });

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
      'workers too far behind',
      { from: v(30), to: v(31), workers: [v(27)], rollsNodes: true },
      /4 minors behind .*at most 3/,
    ],
    [
      'workers newer than the API server',
      { from: v(30), to: v(31), workers: [v(32)], rollsNodes: true },
      /newer than the API server/,
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
