import * as z from 'zod';
import { taskGrants } from '../../infra/task-grants';
import { TASK_CATALOGUE } from '../../lambdas/tasks/catalogue';
import { defineTask, type PortNeeds } from '../../lambdas/tasks/define-task';

const withPorts = (ports: PortNeeds) =>
  defineTask({
    name: 'Probe',
    description: 'probe',
    input: z.unknown(),
    output: z.unknown(),
    ports,
    step: async () => 0,
  });

describe('taskGrants (IAM from the ports a task declares)', () => {
  it('grants the table, the artefacts and the tokens only for the ports that use them', () => {
    expect(taskGrants(withPorts({ clock: 'read' }))).toEqual({ table: false, tokens: false, cloud: [] });
    expect(taskGrants(withPorts({ progress: 'write', artifacts: 'read', registry: 'write' }))).toEqual({
      table: true,
      artifacts: 'read',
      tokens: true,
      cloud: [],
    });
    expect(taskGrants(withPorts({ sources: 'read' })).tokens).toBe(true);
    expect(taskGrants(withPorts({ kube: 'write' })).tokens).toBe(true);
    expect(taskGrants(withPorts({ artifacts: 'write' })).artifacts).toBe('write');
  });

  it("adds a reader's published objects (the dispatcher's fleet page), moot for a writer", () => {
    const publishing = (artifacts: 'read' | 'write') => ({
      ...withPorts({ artifacts }),
      publishes: ['fleet/index.html'],
    });
    expect(taskGrants(publishing('read'))).toMatchObject({ artifacts: 'read', artifactKeys: ['fleet/index.html'] });
    expect(taskGrants(publishing('write')).artifactKeys).toBeUndefined();
  });

  it('turns the cluster ports into cloud access by their access', () => {
    expect(taskGrants(withPorts({ stacks: 'read' })).cloud).toEqual(['stacks-read']);
    expect(taskGrants(withPorts({ stacks: 'write' })).cloud).toEqual(['stacks-write']);
    expect(taskGrants(withPorts({ pools: 'write', values: 'read' })).cloud).toEqual(['lookups', 'nodes-write']);
    expect(taskGrants(withPorts({ templates: 'read', secrets: 'read' })).cloud).toEqual(['decrypt', 'lookups']);
  });

  it('turns the fleet ports into the table, Step Functions, EventBridge and the webhook secret', () => {
    expect(taskGrants(withPorts({ fleet: 'write', events: 'write' }))).toEqual({
      table: true,
      tokens: false,
      cloud: [],
      events: true,
    });
    expect(taskGrants(withPorts({ events: 'read' })).events).toBeUndefined();
    expect(taskGrants(withPorts({ executions: 'read' })).executions).toBe('read');
    expect(taskGrants(withPorts({ executions: 'write' })).executions).toBe('write');
    expect(taskGrants(withPorts({ webhooks: 'read' }))).toEqual({
      table: false,
      tokens: false,
      cloud: [],
      webhookSecret: true,
    });
  });

  it("gives the catalogue's tasks what their steps do", () => {
    const grants = Object.fromEntries(TASK_CATALOGUE.map((task) => [task.name, taskGrants(task)]));
    // ApplyManifests deletes the cf-manifest stacks that cf-deletions.yaml names.
    expect(grants.ApplyManifests!.cloud).toContain('stacks-write');
    // `lookups` (describe-only, here for cloudwatch:DescribeAlarms): the health gate's update_health_alarm.
    expect(grants.RollNodePool!.cloud).toEqual(['lookups', 'nodes-write']);
    // Decommission's cleanup of what a cluster left outside its stacks: the only task with leftovers-write.
    expect(grants.CleanUpLeftovers!.cloud).toEqual(['leftovers-write']);
    expect(
      Object.entries(grants)
        .filter(([, g]) => g.cloud.includes('leftovers-write'))
        .map(([n]) => n),
    ).toEqual(['CleanUpLeftovers']);
    // DeleteStacks and DeployStacks use the stack deployer's ContinueUpdateRollback, DescribeStackEvents: stacks-write;
    // DeleteStacks terminates the Karpenter instances before the stacks (CLM decommission step 2): nodes-write.
    expect(grants.DeleteStacks!.cloud).toEqual(['nodes-write', 'stacks-write']);
    // The account's vCPU quotas: only the tasks that rehearse an update read them.
    expect(
      Object.entries(grants)
        .filter(([, g]) => g.cloud.includes('quotas-read'))
        .map(([n]) => n)
        .sort(),
    ).toEqual(['PlanUpdate', 'ReviewUpdate']);
    expect(grants.RenderConfig).toEqual({
      table: true,
      artifacts: 'write',
      tokens: true,
      cloud: ['decrypt', 'lookups', 'stacks-write'],
      // Held outside a maintenance window: an event.
      events: true,
    });
    // Every step that writes reads the live registry first (cluster_update_block, tasks/step/hold-gate.ts): an HTTP registry's
    // token; a step that neither writes nor reads the registry gets none.
    expect(grants.DeployStacks!.tokens).toBe(true);
    expect(grants.RenderClusterResources!.tokens).toBe(false);
    expect(grants.GithubWebhook).toEqual({ table: true, tokens: true, cloud: [], events: true, webhookSecret: true });
    expect(grants.DispatchFleet).toMatchObject({ table: true, executions: 'write', events: true });
    expect(grants.DispatchFleet!.webhookSecret).toBeUndefined();
  });
});
