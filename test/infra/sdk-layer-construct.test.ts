import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sdkLayer } from '../../infra/constructs/sdk-layer';
import { TaskFunction } from '../../infra/constructs/task-function';
import { writeHandlerEntry } from '../../infra/handler-entries';
import { LAYER_MODULES } from '../../infra/sdk-layer/build-sdk-layer';
import { task as prepare } from '../../lambdas/tasks/prepare';
import { task as renderConfig } from '../../lambdas/tasks/render-config';
import { REPO_ROOT, testApp } from './synth';

function layerKey(stack: Stack): string {
  const [layer] = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::LayerVersion'));
  return layer.Properties.Content.S3Key as string;
}

describe('the SDK layer of the TaskFunctions', () => {
  it('is one layer per stack, attached to every function, for their runtime and architecture', () => {
    const stack = new Stack(testApp(), 'Test');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const artifactBucket = new Bucket(stack, 'Bucket');
    for (const task of [prepare, renderConfig]) {
      new TaskFunction(stack, task.name, { entry: writeHandlerEntry(task, REPO_ROOT), table, artifactBucket });
    }
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::Lambda::LayerVersion', 1);
    template.hasResourceProperties('AWS::Lambda::LayerVersion', {
      CompatibleRuntimes: ['nodejs22.x'],
      CompatibleArchitectures: ['arm64'],
    });
    const functions = template.findResources('AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(2);
    for (const fn of Object.values(functions)) {
      expect(fn.Properties.Layers).toEqual([{ Ref: expect.stringMatching(/^ClmAwsSdkLayer/) }]);
    }
  });

  it('is built at synth into the asset CDK uploads, hashed by its content', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'clm-cdk-out-'));
    try {
      const app = new App({ outdir }); // bundling on, as `cdk synth` runs it
      const stack = new Stack(app, 'Layer');
      sdkLayer(stack, { projectRoot: REPO_ROOT, runtime: Runtime.NODEJS_22_X, architecture: Architecture.ARM_64 });
      const key = layerKey(stack);
      app.synth();
      const asset = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
      expect(existsSync(join(asset, LAYER_MODULES, '@aws-sdk', 'client-ec2', 'dist-cjs', 'index.js'))).toBe(true);
      expect(existsSync(join(asset, LAYER_MODULES, '@aws-sdk', 'client-dynamodb', 'package.json'))).toBe(true);
      // Same content, same key: another synth (bundling skipped) does not upload a new layer.
      const again = new Stack(testApp(), 'Again');
      sdkLayer(again, { projectRoot: REPO_ROOT, runtime: Runtime.NODEJS_22_X, architecture: Architecture.ARM_64 });
      expect(layerKey(again)).toBe(key);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
