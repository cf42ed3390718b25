/** The pinned offline table: well-formed rows and spot checks against the published specifications. */
import { PINNED_INSTANCE_TYPES } from '../../../lambdas/core/values/instance-types';

describe('PINNED_INSTANCE_TYPES', () => {
  it('has well-formed facts for every type', () => {
    expect(PINNED_INSTANCE_TYPES.size).toBeGreaterThan(100);
    for (const [name, info] of PINNED_INSTANCE_TYPES) {
      expect(info.instanceType).toBe(name);
      expect(info.vcpu).toBeGreaterThan(0);
      expect(Number.isInteger(info.memoryMiB) && info.memoryMiB >= 1024).toBe(true);
      expect(['amd64', 'arm64']).toContain(info.architecture);
      expect(info.instanceStorageDevices === 0).toBe(info.instanceStorageDeviceSizeGB === 0);
    }
  });

  it.each([
    ['m6i.large', 2, 8192, 'amd64', 0, 0],
    ['m6g.large', 2, 8192, 'arm64', 0, 0],
    ['m6id.xlarge', 4, 16384, 'amd64', 1, 237],
    ['m5d.4xlarge', 16, 65536, 'amd64', 2, 300],
    ['c6i.2xlarge', 8, 16384, 'amd64', 0, 0],
    ['c5.9xlarge', 36, 73728, 'amd64', 0, 0],
    ['r6i.xlarge', 4, 32768, 'amd64', 0, 0],
    ['g3s.xlarge', 4, 31232, 'amd64', 0, 0],
    ['g4dn.xlarge', 4, 16384, 'amd64', 1, 125],
  ])('%s: %d vCPU, %d MiB, %s, %d × %d GB', (name, vcpu, memoryMiB, architecture, disks, size) => {
    expect(PINNED_INSTANCE_TYPES.get(name)).toEqual({
      instanceType: name,
      vcpu,
      memoryMiB,
      architecture,
      instanceStorageDevices: disks,
      instanceStorageDeviceSizeGB: size,
    });
  });

  it('does not invent sizes a family does not have', () => {
    expect(PINNED_INSTANCE_TYPES.has('c5.8xlarge')).toBe(false);
    expect(PINNED_INSTANCE_TYPES.has('c5d.8xlarge')).toBe(false);
  });
});
