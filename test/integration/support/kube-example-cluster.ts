/**
 * The Kubernetes adapter suite's cluster (kube/kube-adapter.int.test.ts) on kube-apiserver + KWOK: three KWOK nodes
 * kept Ready by lease heartbeats, static PersistentVolumes, and the example config rendered for it. `tearDown`
 * leaves the control plane as it was found, for the next suite (the end-to-end test starts "from nothing").
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ClientNodeKubeCluster } from '../../../lambdas/adapters/kube/client-node-kube-cluster';
import { splitManifests } from '../../../lambdas/core/render/split-manifests';
import type { KubeObject } from '../../../lambdas/ports/kube-cluster';
import { integrationEnvironment } from './environment';
import { exampleConfigForIntegration, renderExample, type RenderedExample } from './example-config';
import { eventually } from './eventually';
import { KWOK_LABEL } from './node-joiner';
import { LeaseHeartbeat, staticVolumes } from './kubelet-stand-ins';

export const FIELD_MANAGER = 'clm-integration';
export const KWOK_NODES = ['kube-int-a', 'kube-int-b', 'kube-int-c'];

function node(name: string, zone: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        ...KWOK_LABEL,
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/zone': zone,
        'node.kubernetes.io/role': 'worker',
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
    },
    spec: { providerID: `aws:///${zone}/i-${name}` },
  };
}

function manifestFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? manifestFiles(path) : /\.ya?ml$/.test(entry) ? [path] : [];
    });
}

/** CLM's order (§5.2): CRDs and Namespaces first, then everything else. */
export function ordered(objects: KubeObject[]): [KubeObject[], KubeObject[]] {
  const first = (o: KubeObject) => o.kind === 'CustomResourceDefinition' || o.kind === 'Namespace';
  return [objects.filter(first), objects.filter((o) => !first(o))];
}

export class KubeExampleCluster {
  readonly kube = new ClientNodeKubeCluster({ kubeconfigPath: integrationEnvironment().kubeconfig });
  private readonly heartbeat = new LeaseHeartbeat(this.kube, async () => KWOK_NODES);
  private example?: RenderedExample;

  /** The example config rendered for this cluster (after `setUp`). */
  get rendered(): RenderedExample {
    if (!this.example) throw new Error('KubeExampleCluster: setUp() first');
    return this.example;
  }

  /** The objects of the rendered example manifests, in file order. */
  exampleObjects(): KubeObject[] {
    return manifestFiles(join(this.rendered.dir, 'manifests')).flatMap((file) =>
      splitManifests(readFileSync(file, 'utf8'), file),
    );
  }

  async setUp(): Promise<void> {
    const kube = this.kube;
    expect(await kube.ready()).toBe(true);
    this.example = renderExample(exampleConfigForIntegration(), {
      vpc_ipv4_cidr: '10.0.0.0/16',
      availability_zones: ['eu-central-1a', 'eu-central-1b', 'eu-central-1c'],
      subnets: {
        '*': 'subnet-a,subnet-b,subnet-c',
        'eu-central-1a': 'subnet-a',
        'eu-central-1b': 'subnet-b',
        'eu-central-1c': 'subnet-c',
      },
    });
    await kube.apply(
      KWOK_NODES.map((n, i) => node(n, `eu-central-1${'abc'[i]}`)),
      { fieldManager: FIELD_MANAGER },
    );
    this.heartbeat.start();
    await staticVolumes(kube, 'kube-int-pv', 4);
    await eventually(
      '3 KWOK nodes Ready',
      async () => (await kube.listNodes()).filter((n) => KWOK_NODES.includes(n.name) && n.ready).length === 3,
    );
  }

  async tearDown(): Promise<void> {
    const kube = this.kube;
    // Leave the control plane as we found it for the next suite (the end-to-end test starts "from nothing").
    const [first, rest] = ordered(this.exampleObjects());
    for (const object of [...rest].reverse()) {
      await kube
        .delete(
          {
            kind: object.kind,
            name: object.metadata.name,
            ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
          },
          { propagationPolicy: 'Background', gracePeriodSeconds: 0 },
        )
        .catch(() => undefined);
    }
    for (const object of first)
      await kube.delete({ kind: object.kind, name: object.metadata.name }, { propagationPolicy: 'Background' });
    for (const name of KWOK_NODES) await kube.delete({ kind: 'Node', name });
    for (let i = 0; i < 4; i++) await kube.delete({ kind: 'PersistentVolume', name: `kube-int-pv-${i}` });
    await eventually(
      'example namespaces gone',
      async () =>
        (await kube.list('Namespace')).every(
          (n) => !first.some((o) => o.kind === 'Namespace' && o.metadata.name === n.metadata.name),
        ),
      120_000,
    );
    await this.heartbeat.stop();
    expect(this.heartbeat.errors).toEqual([]);
  }
}
