// TASK_NEEDS (what IAM grants each task function) against TASK_PORTS (what each handler wires): every port a task uses
// is granted, and nothing is granted that no port of the task uses.
import { TASK_PORTS } from '../../lambdas/adapters/wiring/task-ports';
import { TASK_FUNCTION_NAMES } from '../../lambdas/runtime/asl-files';
import { TASK_NEEDS } from '../../infra/task-grants';
import type { CloudAccess } from '../../infra/task-grants';

/** The grants a task's ports call for. Stacks: read or write (a wiring cannot tell), so compared as "some". */
function grantsFor(task: keyof typeof TASK_PORTS) {
  const ports: readonly string[] = TASK_PORTS[task].ports;
  const cluster: readonly string[] = TASK_PORTS[task].cluster;
  return {
    // Registry, git sources and API servers authenticate with the tokens of the secret.
    tokens: ports.includes('registry') || ports.includes('sources') || cluster.includes('kube'),
    stacks: cluster.includes('stacks'),
    // EC2 describe calls: the template helpers (amiID, instanceType*) and the values provider.
    lookups: ports.includes('templates') || cluster.includes('values') || cluster.includes('lookups'),
    'nodes-write': cluster.includes('pools'),
    decrypt: ports.includes('secrets'),
  };
}

function granted(task: keyof typeof TASK_PORTS) {
  const cloud: readonly CloudAccess[] = TASK_NEEDS[task].cloud;
  return {
    tokens: TASK_NEEDS[task].tokens,
    stacks: cloud.includes('stacks-read') || cloud.includes('stacks-write'),
    lookups: cloud.includes('lookups'),
    'nodes-write': cloud.includes('nodes-write'),
    decrypt: cloud.includes('decrypt'),
  };
}

describe('TASK_NEEDS', () => {
  it('covers the same tasks as TASK_PORTS', () => {
    expect([...TASK_FUNCTION_NAMES].sort()).toEqual(Object.keys(TASK_PORTS).sort());
  });

  it('grants each task exactly what the ports its handler wires need', () => {
    const needed = Object.fromEntries(TASK_FUNCTION_NAMES.map((task) => [task, grantsFor(task)]));
    const given = Object.fromEntries(TASK_FUNCTION_NAMES.map((task) => [task, granted(task)]));
    expect(given).toEqual(needed);
  });

  it('lets a task that deletes stacks write them (ApplyManifests deletes the cf-manifest stacks of deletions.yaml)', () => {
    expect(TASK_NEEDS.ApplyManifests.cloud).toContain('stacks-write');
  });
});
