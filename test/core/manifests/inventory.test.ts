import { pruneCandidates } from '../../../lambdas/core/manifests/inventory';
import type { ObjectRef } from '../../../lambdas/ports/kube-cluster';

const ref = (apiVersion: string, kind: string, name: string, namespace?: string): ObjectRef => ({
  apiVersion,
  kind,
  name,
  ...(namespace ? { namespace } : {}),
});

describe('pruneCandidates', () => {
  it('prunes what the render no longer has', () => {
    const previous = [ref('v1', 'ConfigMap', 'old', 'web'), ref('apps/v1', 'Deployment', 'web', 'web')];
    const current = [ref('apps/v1', 'Deployment', 'web', 'web')];
    expect(pruneCandidates(previous, current)).toEqual([ref('v1', 'ConfigMap', 'old', 'web')]);
  });

  it('keeps an object whose apiVersion changed (HPA autoscaling/v1 → v2 is the same live object)', () => {
    const previous = [ref('autoscaling/v1', 'HorizontalPodAutoscaler', 'web', 'web')];
    const current = [ref('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', 'web')];
    expect(pruneCandidates(previous, current)).toEqual([]);
  });

  it('keeps objects that moved group (v1beta1 → v1 migrations: Ingress extensions → networking.k8s.io)', () => {
    const previous = [
      ref('extensions/v1beta1', 'Ingress', 'web', 'web'),
      ref('policy/v1beta1', 'PodDisruptionBudget', 'web', 'web'),
    ];
    const current = [
      ref('networking.k8s.io/v1', 'Ingress', 'web', 'web'),
      ref('policy/v1', 'PodDisruptionBudget', 'web', 'web'),
    ];
    expect(pruneCandidates(previous, current)).toEqual([]);
  });

  it('still prunes the same name in another namespace or of another kind', () => {
    const previous = [ref('v1', 'ConfigMap', 'web', 'old-ns'), ref('v1', 'Secret', 'web', 'web')];
    const current = [ref('v1', 'ConfigMap', 'web', 'web')];
    expect(pruneCandidates(previous, current)).toEqual(previous);
  });

  it('never prunes kinds that hold data', () => {
    const previous = [ref('v1', 'Namespace', 'gone'), ref('v1', 'PersistentVolumeClaim', 'data', 'db')];
    expect(pruneCandidates(previous, [])).toEqual([]);
  });
});
