/** CLM adds the discovered vpc_id and node subnets to the cluster's config items when the registry does not set them. */
import { withDiscoveredNetwork } from '../../../lambdas/core/render/discovered-network';
import { cluster, pool } from './fixtures';

const VALUES = { vpc_id: 'vpc-1', subnets: { 'eu-central-1a': 'subnet-a', '*': 'subnet-a,subnet-b' } };

describe('withDiscoveredNetwork', () => {
  it('adds vpc_id and subnets to the cluster items only, keeping them sorted', () => {
    const c = cluster({ configItems: { zeta: 'z', alpha: 'a' }, nodePools: [pool({ configItems: { alpha: 'a' } })] });
    const result = withDiscoveredNetwork(c, VALUES);
    expect(Object.entries(result.configItems)).toEqual([
      ['alpha', 'a'],
      ['subnets', 'subnet-a,subnet-b'],
      ['vpc_id', 'vpc-1'],
      ['zeta', 'z'],
    ]);
    expect(result.nodePools[0].configItems).toEqual({ alpha: 'a' });
  });

  it('keeps what the registry sets, and changes nothing without discovered values', () => {
    const c = cluster({ configItems: { vpc_id: 'vpc-mine', subnets: 'subnet-x' } });
    expect(withDiscoveredNetwork(c, VALUES)).toBe(c);
    const plain = cluster();
    expect(withDiscoveredNetwork(plain, {})).toBe(plain);
  });
});
