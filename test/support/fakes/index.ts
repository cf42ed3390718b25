export { FakeClock } from './fake-clock';
export { FakeKubeCluster } from './fake-kube-cluster';
export type { FakeNode, FakePod, FakeWorkload } from './fake-kube-model';
export { FakeNodePoolBackend } from './fake-node-pool-backend';
export { FakeStackDeployer } from './fake-stack-deployer';
export { MemoryArtifactStore } from './memory-artifact-store';
export { fakeEnv, seedRun, MemoryRegistry, FixedConfigSource } from './fake-ports';
export { testCluster, testPool } from '../test-cluster';
export type { FakeEnv } from './fake-ports';
