import type { Stack } from 'aws-cdk-lib';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import type { ILayerVersion, Runtime, Architecture } from 'aws-cdk-lib/aws-lambda';
import { join } from 'node:path';
import { buildSdkLayer, sdkLayerHash } from '../sdk-layer/build-sdk-layer';

const LAYER_ID = 'ClmAwsSdkLayer';

export interface SdkLayerOptions {
  /** Project root: where package.json, package-lock.json and node_modules are. */
  readonly projectRoot: string;
  readonly runtime: Runtime;
  readonly architecture: Architecture;
}

/**
 * The stack's one AWS SDK layer (infra/sdk-layer/build-sdk-layer.ts says what it holds), created by the first
 * TaskFunction that asks. Built locally at synth (no Docker): the layer is plain JavaScript copied from node_modules
 * plus one esbuild run, so it does not depend on the machine's architecture. The asset hash is the layer's content
 * hash (package-lock.json, the EC2 subset, the build), so an unchanged SDK is not uploaded again.
 */
export function sdkLayer(scope: Stack, options: SdkLayerOptions): ILayerVersion {
  const existing = scope.node.tryFindChild(LAYER_ID);
  if (existing) return existing as LayerVersion;
  const { projectRoot } = options;
  return new LayerVersion(scope, LAYER_ID, {
    description:
      'AWS SDK for JavaScript v3 as package-lock.json pins it, with an EC2 client of only the calls CLM makes',
    compatibleRuntimes: [options.runtime],
    compatibleArchitectures: [options.architecture],
    code: Code.fromAsset(join(projectRoot, 'infra', 'sdk-layer'), {
      assetHashType: AssetHashType.CUSTOM,
      assetHash: sdkLayerHash(projectRoot),
      bundling: {
        // Only used if local bundling declined, which it never does; CDK requires an image all the same.
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22'),
        local: {
          tryBundle(outputDir: string): boolean {
            buildSdkLayer(projectRoot, outputDir);
            return true;
          },
        },
      },
    }),
  });
}
