import { describeLiveKubernetes, liveVersions } from '../../../lambdas/tasks/cluster-stacks/live-kubernetes';

describe('the live Kubernetes versions', () => {
  const live = {
    apiServer: 'v1.10.2',
    nodes: [
      { name: 'c', kubeletVersion: 'v1.9.8' },
      { name: 'a', kubeletVersion: 'v1.10.2' },
      { name: 'b', kubeletVersion: 'v1.10.2' },
      { name: 'd', kubeletVersion: 'v1.10.2' },
      { name: 'e' },
    ],
  };

  it('says what was read, newest minor first, counting large groups', () => {
    expect(describeLiveKubernetes(live, '1.10')).toBe(
      'Kubernetes checked live: API server v1.10.2; kubelets v1.10.2 (3 nodes), v1.9.8 (c), unknown (e)',
    );
  });

  it('gives the rule the minors, leaving out nodes that report no version', () => {
    expect(liveVersions(live)).toEqual({
      from: { major: 1, minor: 10 },
      nodes: [
        { name: 'c', version: { major: 1, minor: 9 } },
        { name: 'a', version: { major: 1, minor: 10 } },
        { name: 'b', version: { major: 1, minor: 10 } },
        { name: 'd', version: { major: 1, minor: 10 } },
      ],
    });
  });

  it('says when nothing was read and what was used instead', () => {
    const down = { nodes: [], unreachable: 'the API server is not reachable' };
    expect(liveVersions(down)).toBeUndefined();
    expect(describeLiveKubernetes(down, '1.30')).toBe(
      'Kubernetes versions not read live (the API server is not reachable): checked against the recorded version 1.30',
    );
    expect(describeLiveKubernetes({ nodes: [], unreachable: 'a new cluster' }, undefined)).toBe(
      'Kubernetes versions not read live (a new cluster): checked against no earlier version (nothing to check)',
    );
  });
});
