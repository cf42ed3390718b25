import { TransientApiError } from '../../../lambdas/shared/errors';
import { FakeManifestObjects } from './fake-manifest-objects';

/** The API server of FakeKubeCluster: whether it answers (`/readyz`) and its version (`/version`). */
export class FakeApiServer extends FakeManifestObjects {
  /** What GET /version answers. */
  apiServerVersion = 'v1.30.5';
  /** false: the API server cannot be reached (ready() is false, serverVersion() fails). */
  reachable = true;

  async ready(): Promise<boolean> {
    this.calls.push('ready');
    return this.reachable;
  }

  async serverVersion(): Promise<string> {
    this.calls.push('serverVersion');
    if (!this.reachable) throw new TransientApiError('GET /version: connection refused (fake)');
    return this.apiServerVersion;
  }
}
