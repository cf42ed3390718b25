import {
  leftoverName,
  ownedBy,
  ownedTag,
  ownedTags,
  planCleanup,
  type Leftover,
} from '../../../lambdas/core/decommission/leftovers';

const lb: Leftover = { kind: 'classic-load-balancer', id: 'a0b1c2' };
const alb: Leftover = {
  kind: 'load-balancer',
  id: 'k8s-web',
  arn: 'arn:aws:elasticloadbalancing:x:1:loadbalancer/app/k8s-web/1',
};
const sg: Leftover = { kind: 'security-group', id: 'sg-1' };
const vol = (id: string, state = 'available'): Leftover => ({ kind: 'volume', id, state });
const eni = (id: string, state = 'available'): Leftover => ({ kind: 'network-interface', id, state });

describe('planCleanup', () => {
  it('deletes load balancers, interfaces and volumes first; security groups wait while a load balancer is left', () => {
    const plan = planCleanup([sg, vol('vol-2'), eni('eni-1'), alb, lb, vol('vol-1')], { keepVolumes: false });

    expect(plan.delete.map(leftoverName)).toEqual([
      'classic-load-balancer a0b1c2',
      'load-balancer k8s-web',
      'network-interface eni-1',
      'volume vol-1',
      'volume vol-2',
    ]);
    expect(plan.waiting).toEqual([sg]);
    expect(plan.kept).toEqual([]);
  });

  it('deletes security groups once no load balancer is left, last', () => {
    const plan = planCleanup([sg, vol('vol-1')], { keepVolumes: false });

    expect(plan.delete).toEqual([vol('vol-1'), sg]);
  });

  it('keeps every volume with keepVolumes, whatever its state', () => {
    const plan = planCleanup([vol('vol-1'), vol('vol-2', 'in-use'), eni('eni-1')], { keepVolumes: true });

    expect(plan.kept).toEqual([vol('vol-1'), vol('vol-2', 'in-use')]);
    expect(plan.delete).toEqual([eni('eni-1')]);
  });

  it('waits for volumes and interfaces that are not available (attached, in use)', () => {
    const plan = planCleanup([vol('vol-1', 'in-use'), eni('eni-1', 'in-use'), eni('eni-2')], { keepVolumes: false });

    expect(plan.delete).toEqual([eni('eni-2')]);
    expect(plan.waiting).toEqual([eni('eni-1', 'in-use'), vol('vol-1', 'in-use')]);
  });

  it('has nothing to do when nothing was left', () => {
    expect(planCleanup([], { keepVolumes: false })).toEqual({ delete: [], kept: [], waiting: [] });
  });
});

describe('ownedTag', () => {
  it("is Kubernetes' ownership tag of the cluster name", () => {
    expect(ownedTag('aws:123456789012:eu-central-1:kube-1')).toEqual({
      key: 'kubernetes.io/cluster/aws:123456789012:eu-central-1:kube-1',
      value: 'owned',
    });
  });
});

describe('ownedTags', () => {
  const cluster = 'aws:123456789012:eu-central-1:kube-1';

  it("are the cloud provider's tag and the AWS Load Balancer Controller's, with the cluster's name", () => {
    expect(ownedTags(cluster)).toEqual([
      { key: `kubernetes.io/cluster/${cluster}`, value: 'owned' },
      { key: 'elbv2.k8s.aws/cluster', value: cluster },
    ]);
  });

  it("own a resource carrying either of them, not one of another cluster's", () => {
    const owned = ownedTags(cluster);
    expect(ownedBy({ [`kubernetes.io/cluster/${cluster}`]: 'owned' }, owned)).toBe(true);
    expect(ownedBy({ 'elbv2.k8s.aws/cluster': cluster, 'ingress.k8s.aws/stack': 'default/web' }, owned)).toBe(true);
    expect(ownedBy({ 'elbv2.k8s.aws/cluster': 'aws:123456789012:eu-central-1:kube-2' }, owned)).toBe(false);
    expect(ownedBy({ [`kubernetes.io/cluster/${cluster}`]: 'shared' }, owned)).toBe(false);
    expect(ownedBy({}, owned)).toBe(false);
  });
});
