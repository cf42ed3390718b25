import { PINNED_INSTANCE_TYPES } from '../../core/values/instance-types';
import type { CloudLookups } from '../../ports/template-engine';
import { NotFoundError } from '../../shared/errors';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import { instrument } from './instrument';

/** The simulated account offers the instance types of the pinned offline table (core/values/instance-types.ts). */
export const INSTANCE_TYPES = PINNED_INSTANCE_TYPES;

/** CloudLookups: AMIs from the scenario's `images`, else a stable id derived from name and owner. */
export function simLookups(ctx: SimContext, clusterId?: string): CloudLookups {
  return instrument<CloudLookups>(ctx, 'lookups', clusterId, {
    amiId(name, ownerId) {
      if (!name || !ownerId) throw new NotFoundError(`no image matches name "${name}" and owner "${ownerId}"`);
      const image = ctx.state.scenario.images.find((i) => i.name === name && i.owner === ownerId);
      return image?.id ?? `ami-${hashOf([name, ownerId], 17)}`;
    },
    instanceType(type) {
      const info = INSTANCE_TYPES.get(type);
      if (!info)
        throw new NotFoundError(
          `instance type ${type} is not offered (the simulated account knows ${INSTANCE_TYPES.size} types, e.g. m6i.large, m6g.large, r6i.xlarge)`,
        );
      return info;
    },
  });
}
