/**
 * CloudFormation change sets for StackDeployer.plan: create one (UPDATE for an existing stack, CREATE otherwise),
 * poll it until ready, page through its changes, and delete what the plan left behind (the change set, or the
 * REVIEW_IN_PROGRESS stack a CREATE change set makes). Calls: CreateChangeSet + n×DescribeChangeSet + one cleanup.
 */
import { randomUUID } from 'node:crypto';
import {
  CreateChangeSetCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient, DescribeChangeSetCommandOutput } from '@aws-sdk/client-cloudformation';
import type { StackChange, StackSpec } from '../../ports/stack-deployer';
import { ConfigError, TransientApiError } from '../../shared/errors';
import { awsErrorName, isNoUpdatesError, isStackMissingError, toClmError } from './aws-errors';
import { STACK_CAPABILITIES, toChanges, toTags } from './cloudformation-mapping';
import type { TemplateSource } from './cloudformation-template-source';

/** How long to wait for a change set to be ready. */
export interface ChangeSetPolling {
  readonly intervalMs: number;
  readonly maxPolls: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** What a plan leaves behind: a change set on an existing stack, or the stack a CREATE change set made. */
export type PlanLeftover = { changeSetId: string } | { stackId: string };

export class CloudFormationChangeSets {
  constructor(
    private readonly client: CloudFormationClient,
    private readonly polling: ChangeSetPolling,
  ) {}

  /** The changes deploying `spec` would make; nothing is left behind. */
  async changesOf(spec: StackSpec, exists: boolean, template: TemplateSource): Promise<StackChange[]> {
    const changeSetName = `clm-plan-${randomUUID()}`;
    let created: { id: string; stackId?: string };
    try {
      const out = await this.client.send(
        new CreateChangeSetCommand({
          StackName: spec.name,
          ChangeSetName: changeSetName,
          ChangeSetType: exists ? 'UPDATE' : 'CREATE',
          Capabilities: [...STACK_CAPABILITIES],
          Tags: toTags(spec.tags),
          ...template,
        }),
      );
      created = { id: out.Id ?? changeSetName, stackId: out.StackId };
    } catch (error) {
      if (isNoUpdatesError(error)) return [];
      throw toClmError(error, `CloudFormation CreateChangeSet ${spec.name}`, spec.name);
    }
    try {
      return await this.collectChanges(spec.name, created.id);
    } finally {
      // A CREATE change set leaves a REVIEW_IN_PROGRESS stack behind that only DeleteStack removes.
      await this.cleanUp(spec.name, exists ? { changeSetId: created.id } : { stackId: created.stackId ?? spec.name });
    }
  }

  /** Deletes what a plan left behind; already gone is fine. */
  async cleanUp(stackName: string, what: PlanLeftover): Promise<void> {
    try {
      if ('changeSetId' in what)
        await this.client.send(new DeleteChangeSetCommand({ ChangeSetName: what.changeSetId }));
      else await this.client.send(new DeleteStackCommand({ StackName: what.stackId }));
    } catch (error) {
      if (isStackMissingError(error) || awsErrorName(error) === 'ChangeSetNotFoundException') return;
      throw toClmError(error, `CloudFormation cleaning up the plan of ${stackName}`, stackName);
    }
  }

  private async collectChanges(stackName: string, changeSetId: string): Promise<StackChange[]> {
    const { intervalMs, maxPolls, sleep } = this.polling;
    let page = await this.describeChangeSet(stackName, changeSetId);
    for (let polls = 1; page.Status !== 'CREATE_COMPLETE' && page.Status !== 'FAILED'; polls++) {
      if (polls >= maxPolls) {
        throw new TransientApiError(
          `CloudFormation change set for ${stackName} still ${page.Status ?? 'pending'} after ${polls} polls`,
        );
      }
      await sleep(intervalMs);
      page = await this.describeChangeSet(stackName, changeSetId);
    }
    if (page.Status === 'FAILED') {
      const reason = page.StatusReason ?? '';
      if (/didn't contain changes|No updates are to be performed/i.test(reason)) return [];
      throw new ConfigError(
        `CloudFormation cannot plan stack ${stackName}: ${reason || 'change set FAILED without a reason'}`,
      );
    }
    const changes = toChanges(page.Changes);
    while (page.NextToken) {
      page = await this.describeChangeSet(stackName, changeSetId, page.NextToken);
      changes.push(...toChanges(page.Changes));
    }
    return changes;
  }

  private async describeChangeSet(
    stackName: string,
    id: string,
    nextToken?: string,
  ): Promise<DescribeChangeSetCommandOutput> {
    try {
      return await this.client.send(
        new DescribeChangeSetCommand({ ChangeSetName: id, ...(nextToken ? { NextToken: nextToken } : {}) }),
      );
    } catch (error) {
      throw toClmError(error, `CloudFormation DescribeChangeSet for ${stackName}`, stackName);
    }
  }
}
