import { gunzipSync } from 'node:zlib';
import {
  clusterStackOutputs,
  encodeUserData,
  restrictToPoolZones,
  supportsT2Unlimited,
} from '../../../lambdas/core/render/pool-values';
import { ConfigError } from '../../../lambdas/shared/errors';
import { VALUES } from './fixtures';

describe('restrictToPoolZones', () => {
  it('keeps values unchanged (as a copy) without the availability_zones item', () => {
    const restricted = restrictToPoolZones(VALUES, { name: 'p', configItems: {} });
    expect(restricted).toEqual(VALUES);
    expect(restricted).not.toBe(VALUES);
  });

  it('restricts zones and subnets, recomputing the "*" entry', () => {
    const restricted = restrictToPoolZones(VALUES, {
      name: 'p',
      configItems: { availability_zones: 'eu-central-1c, eu-central-1a' },
    });
    expect(restricted.availability_zones).toEqual(['eu-central-1a', 'eu-central-1c']);
    expect(restricted.subnets).toEqual({
      'eu-central-1a': 'subnet-a',
      'eu-central-1c': 'subnet-c',
      '*': 'subnet-a,subnet-c',
    });
    expect(restricted.ClusterStackOutputs).toBe(VALUES.ClusterStackOutputs);
  });

  it('fails naming the pool for a zone without a subnet', () => {
    const act = () =>
      restrictToPoolZones(VALUES, { name: 'db', configItems: { availability_zones: 'eu-central-1a,eu-central-1d' } });
    expect(act).toThrow(ConfigError);
    expect(act).toThrow(
      'node pool "db": availability_zones lists eu-central-1d, which has no subnet (known zones: eu-central-1a, eu-central-1b, eu-central-1c)',
    );
  });

  it('sets only availability_zones when there are no subnets in the values', () => {
    expect(restrictToPoolZones({}, { name: 'p', configItems: { availability_zones: 'x' } })).toEqual({
      availability_zones: ['x'],
    });
  });
});

describe('encodeUserData', () => {
  it('gzips then base64-encodes, deterministically', () => {
    const encoded = encodeUserData('#cloud-config\n');
    expect(gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8')).toBe('#cloud-config\n');
    expect(encodeUserData('#cloud-config\n')).toBe(encoded);
  });
});

describe('values helpers', () => {
  it('reads stack outputs as strings, {} when absent', () => {
    expect(clusterStackOutputs({ ClusterStackOutputs: { A: 'a', N: 1 } })).toEqual({ A: 'a', N: '1' });
    expect(clusterStackOutputs({})).toEqual({});
  });

  it('supports t2 unlimited only when every type is a t2', () => {
    expect(supportsT2Unlimited({ instanceTypes: ['t2.micro', 't2.large'] })).toBe(true);
    expect(supportsT2Unlimited({ instanceTypes: ['t2.micro', 't3.large'] })).toBe(false);
  });
});
