import { S3Client } from '@aws-sdk/client-s3';
import { S3ArtifactStore } from '../../../adapters/aws/s3-artifact-store';
import type { PortFactories } from '../../restrict-ports';
import type { WiringContext } from '../port-modules';
import { TASK_ENV } from '../task-environment';
import { traced } from '../tracing';

/** Port module of the artefacts: the rendered configs in the bucket of the task's own account (see ../port-modules.ts). */
export async function portFactories({ env }: WiringContext): Promise<PortFactories> {
  const endpoint = env.endpoint ? { endpoint: env.endpoint } : {};
  return {
    artifacts: () =>
      new S3ArtifactStore(
        // Path-style URLs: emulators do not serve virtual-hosted bucket names.
        traced(new S3Client({ region: env.region, ...endpoint, ...(env.endpoint ? { forcePathStyle: true } : {}) })),
        { bucket: env.required(TASK_ENV.artifactBucket), region: env.region, ...endpoint },
      ),
  };
}
