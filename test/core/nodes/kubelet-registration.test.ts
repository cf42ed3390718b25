import { kubeletRegistration } from '../../../lambdas/core/nodes/kubelet-registration';

const cloudConfig = (lines: string[]) =>
  ['#cloud-config', 'write_files:', '  - path: /etc/kubernetes/secrets.env', '    content: |']
    .concat(lines.map((line) => `      ${line}`))
    .join('\n');

describe('kubeletRegistration', () => {
  it('reads labels and taints from the environment lines of a cloud-config', () => {
    const result = kubeletRegistration(
      cloudConfig([
        'NODE_LABELS=node.kubernetes.io/node-pool=stateful,lifecycle-status=ready,dedicated=stateful',
        'NODE_TAINTS=dedicated=stateful:NoSchedule,node-role.kubernetes.io/control-plane=:NoSchedule',
      ]),
    );
    expect(result).toEqual({
      ok: true,
      declared: true,
      labels: { 'node.kubernetes.io/node-pool': 'stateful', 'lifecycle-status': 'ready', dedicated: 'stateful' },
      taints: [
        { key: 'dedicated', value: 'stateful', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      ],
    });
  });

  it("takes kubernetes-on-aws's NODEPOOL_TAINTS as well, and an empty line means no taints", () => {
    const koa = kubeletRegistration(cloudConfig(['NODEPOOL_TAINTS=node.kubernetes.io/role=master:NoSchedule']));
    expect(koa).toMatchObject({ ok: true, taints: [{ key: 'node.kubernetes.io/role', value: 'master' }] });
    expect(kubeletRegistration(cloudConfig(['NODE_TAINTS=']))).toMatchObject({ ok: true, declared: true, taints: [] });
  });

  it('says the image decides when the user data sets none of them', () => {
    expect(kubeletRegistration('#!/bin/bash\necho hi\n')).toEqual({
      ok: true,
      declared: false,
      labels: {},
      taints: undefined,
    });
  });

  it.each([
    ['kubernetes.io/role=worker', 'may not set labels in the kubernetes.io/k8s.io namespaces'],
    ['node-role.kubernetes.io/control-plane=', 'may not set labels in the kubernetes.io/k8s.io namespaces'],
    ['x.k8s.io/thing=1', 'may not set labels'],
    ['team=plat form', 'is not a valid label value'],
    ['a/b/c=1', 'more than one "/"'],
  ])('refuses the label %s as a kubelet does', (label, reason) => {
    const result = kubeletRegistration(cloudConfig([`NODE_LABELS=lifecycle-status=ready,${label}`]));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(`--node-labels ${label}`);
    expect(!result.ok && result.reason).toContain(reason);
  });

  it.each([
    ['kubelet.kubernetes.io/x=1'],
    ['node.kubernetes.io/role=worker'],
    ['sub.node.kubernetes.io/y=2'],
    ['topology.kubernetes.io/zone=eu-central-1a'],
    ['example.com/team=a'],
  ])('accepts the label %s', (label) => {
    expect(kubeletRegistration(cloudConfig([`NODE_LABELS=${label}`])).ok).toBe(true);
  });

  it.each([
    ['dedicated=stateful', 'a taint is key[=value]:Effect'],
    ['dedicated=stateful:NoRun', 'effect "NoRun"'],
    ['bad key=x:NoSchedule', 'key name "bad key" is not a valid label name'],
  ])('refuses the taint %s', (taint, reason) => {
    const result = kubeletRegistration(cloudConfig([`NODE_TAINTS=${taint}`]));
    expect(!result.ok && result.reason).toContain(`--register-with-taints ${taint}: ${reason}`);
  });
});
