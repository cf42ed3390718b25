import type { CloudLookups, InstanceTypeInfo } from '../../ports/template-engine';
import { NotFoundError } from '../../shared/errors';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

/** A small EC2 instance-type catalogue (vCPU, MiB, architecture, local storage GiB). */
export const INSTANCE_TYPES: Readonly<Record<string, Omit<InstanceTypeInfo, 'instanceType'>>> = {
  't2.medium': { vcpu: 2, memoryMiB: 4096, architecture: 'amd64', instanceStorageGiB: 0 },
  't2.large': { vcpu: 2, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 0 },
  't3.medium': { vcpu: 2, memoryMiB: 4096, architecture: 'amd64', instanceStorageGiB: 0 },
  't3.large': { vcpu: 2, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 0 },
  'm5.large': { vcpu: 2, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 0 },
  'm5.xlarge': { vcpu: 4, memoryMiB: 16384, architecture: 'amd64', instanceStorageGiB: 0 },
  'm5.2xlarge': { vcpu: 8, memoryMiB: 32768, architecture: 'amd64', instanceStorageGiB: 0 },
  'm5.4xlarge': { vcpu: 16, memoryMiB: 65536, architecture: 'amd64', instanceStorageGiB: 0 },
  'm5d.large': { vcpu: 2, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 75 },
  'm5d.xlarge': { vcpu: 4, memoryMiB: 16384, architecture: 'amd64', instanceStorageGiB: 150 },
  'm6i.large': { vcpu: 2, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 0 },
  'm6i.xlarge': { vcpu: 4, memoryMiB: 16384, architecture: 'amd64', instanceStorageGiB: 0 },
  'm6g.large': { vcpu: 2, memoryMiB: 8192, architecture: 'arm64', instanceStorageGiB: 0 },
  'm6g.xlarge': { vcpu: 4, memoryMiB: 16384, architecture: 'arm64', instanceStorageGiB: 0 },
  'c5.large': { vcpu: 2, memoryMiB: 4096, architecture: 'amd64', instanceStorageGiB: 0 },
  'c5.xlarge': { vcpu: 4, memoryMiB: 8192, architecture: 'amd64', instanceStorageGiB: 0 },
  'c5.2xlarge': { vcpu: 8, memoryMiB: 16384, architecture: 'amd64', instanceStorageGiB: 0 },
  'c6g.large': { vcpu: 2, memoryMiB: 4096, architecture: 'arm64', instanceStorageGiB: 0 },
  'r5.large': { vcpu: 2, memoryMiB: 16384, architecture: 'amd64', instanceStorageGiB: 0 },
  'r5.xlarge': { vcpu: 4, memoryMiB: 32768, architecture: 'amd64', instanceStorageGiB: 0 },
};

/** CloudLookups: AMIs from the scenario's `images`, else a stable id derived from name and owner. */
export function simLookups(ctx: SimContext, clusterId?: string): CloudLookups {
  return instrument<CloudLookups>(ctx, 'lookups', clusterId, {
    amiId(name, ownerId) {
      if (!name || !ownerId) throw new NotFoundError(`no image matches name "${name}" and owner "${ownerId}"`);
      const image = ctx.state.scenario.images.find((i) => i.name === name && i.owner === ownerId);
      return image?.id ?? `ami-${hashOf([name, ownerId], 17)}`;
    },
    instanceType(type) {
      const info = INSTANCE_TYPES[type];
      if (!info)
        throw new NotFoundError(
          `instance type ${type} is not offered (the simulated account knows ${Object.keys(INSTANCE_TYPES).join(', ')})`,
        );
      return { instanceType: type, ...info };
    },
  });
}
