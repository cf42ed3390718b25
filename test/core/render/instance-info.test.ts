/** Values.InstanceInfo as CLM computes it: synthetic facts over a pool's types, its methods, and where facts come from. */
import {
  INSTANCE_TYPE_FACTS,
  collectInstanceTypeFacts,
  poolInstanceInfo,
  syntheticInstanceInfo,
} from '../../../lambdas/core/render/instance-info';
import { PINNED_INSTANCE_TYPES } from '../../../lambdas/core/values/instance-types';
import type { InstanceTypeInfo } from '../../../lambdas/ports/template-engine';
import { ConfigError, ThrottledError } from '../../../lambdas/shared/errors';
import { cluster, pool } from './fixtures';

const type = (name: string): InstanceTypeInfo => PINNED_INSTANCE_TYPES.get(name)!;

describe('syntheticInstanceInfo', () => {
  it('gives one type its own facts, in CLM units (bytes)', () => {
    const info = syntheticInstanceInfo([type('m6id.xlarge')]);
    expect(info).toMatchObject({
      InstanceType: 'm6id.xlarge',
      VCPU: 4,
      Memory: 16 * 1024 ** 3,
      InstanceStorageDevices: 1,
      InstanceStorageDeviceSize: 237_000_000_000,
      Architecture: 'amd64',
    });
  });

  it("takes the minimum of every fact over several types, and the first type's architecture", () => {
    const info = syntheticInstanceInfo([type('m6g.xlarge'), type('m6id.large'), type('c6i.2xlarge')]);
    expect(info).toMatchObject({
      InstanceType: '<multiple>',
      VCPU: 2,
      Memory: 8 * 1024 ** 3,
      InstanceStorageDevices: 0,
      InstanceStorageDeviceSize: 0,
      Architecture: 'arm64',
    });
  });

  it('AvailableStorage scales the instance storage, or the root volume without one (truncated)', () => {
    expect(syntheticInstanceInfo([type('m6id.xlarge')]).AvailableStorage(0.9, 50, 858993459)).toBe(213_300_000_000);
    expect(syntheticInstanceInfo([type('m6i.xlarge')]).AvailableStorage(0.9, 50, 858993459)).toBe(42_949_672_950);
    expect(syntheticInstanceInfo([type('m6i.xlarge')]).AvailableStorage(0.9, 3, 0.5)).toBe(1);
  });

  it('MemoryFraction is percent × memory / 100 in integers; bad arguments are errors', () => {
    const info = syntheticInstanceInfo([type('m5.large')]);
    expect(info.MemoryFraction(25)).toBe(2147483648);
    expect(info.MemoryFraction(33)).toBe(Math.floor((33 * 8589934592) / 100));
    expect(() => info.MemoryFraction(2.5)).toThrow('percent must be an integer, got 2.5');
    expect(() => info.AvailableStorage(1, 'x', 1)).toThrow('root volume size must be a number');
    expect(() => syntheticInstanceInfo([])).toThrow('no instance types provided');
  });
});

describe('poolInstanceInfo and collectInstanceTypeFacts', () => {
  it("builds the info from the values' facts, or gives nothing when a type is unknown", () => {
    const values = { [INSTANCE_TYPE_FACTS]: { 'm5.large': type('m5.large'), 'm5.xlarge': type('m5.xlarge') } };
    expect(poolInstanceInfo(['m5.xlarge', 'm5.large'], values)?.VCPU).toBe(2);
    expect(poolInstanceInfo(['m5.large', 'x1.tiny'], values)).toBeUndefined();
    expect(poolInstanceInfo(['m5.large'], {})).toBeUndefined();
  });

  it('asks once per distinct type of the ASG pools, skips unknown types and passes throttling on', async () => {
    const c = cluster({
      nodePools: [
        pool({ name: 'a', instanceTypes: ['m5.large', 'x1.tiny'] }),
        pool({ name: 'b', instanceTypes: ['m5.large'] }),
        pool({ name: 'k', profile: 'worker-karpenter', instanceTypes: ['default-for-karpenter'] }),
      ],
    });
    const asked: string[] = [];
    const facts = await collectInstanceTypeFacts(c, async (name) => {
      asked.push(name);
      if (name === 'x1.tiny') throw new ConfigError('unknown instance type x1.tiny');
      return type(name);
    });
    expect(asked.sort()).toEqual(['m5.large', 'x1.tiny']);
    expect(Object.keys(facts)).toEqual(['m5.large']);
    await expect(
      collectInstanceTypeFacts(c, async () => {
        throw new ThrottledError('Rate exceeded');
      }),
    ).rejects.toBeInstanceOf(ThrottledError);
  });
});
