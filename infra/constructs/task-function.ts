import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { acknowledge } from '../nag';
import { sdkLayer } from './sdk-layer';
import { TASK_ENV } from '../../lambdas/runtime/lambda/task-environment';
import { CLM_SERVICE_NAME } from '../../lambdas/contracts/metrics';
import { DEFAULT_TASK_MEMORY_MB } from '../../lambdas/tasks/define-task';

/** The runtime every task runs on (the bundle targets the same Node major). */
export const TASK_RUNTIME = Runtime.NODEJS_22_X;
export const TASK_NODE_TARGET = 'node22';

/**
 * The packages the bundles leave out: the AWS SDK, which every TaskFunction gets from the stack's SDK layer
 * (infra/constructs/sdk-layer.ts) at the versions package-lock.json pins and the tests run against. A layer comes
 * before the runtime's own SDK on NODE_PATH (/opt/nodejs/node_modules, then /var/runtime/node_modules), so the
 * runtime's copy, whatever its version, is never used. One layer for all tasks instead of the SDK in every bundle:
 * bundles stay small (EC2 alone would be ~550 KB minified) and the SDK is uploaded once per version. The layer's EC2
 * client holds only the calls CLM makes (lambdas/adapters/aws/ec2-api.ts): loading it costs ~10 ms of CPU where the
 * full client costs ~130 ms. Our code imports only `@aws-sdk/client-*` and `@aws-sdk/lib-dynamodb`:
 * test/runtime/lambda/handler-bundles.test.ts checks every bundle's external imports against the layer's packages.
 */
export const TASK_EXTERNAL_MODULES: readonly string[] = ['@aws-sdk/*', '@smithy/*'];

/**
 * esbuild options shared by the TaskFunction and `bench/lambda.bench.ts`: one CommonJS file with every dependency
 * bundled except the runtime's AWS SDK (TASK_EXTERNAL_MODULES), minified, with a source map. CommonJS because some
 * dependencies are ESM-only but none needs top-level await, a CJS bundle needs no `package.json` next to it, and its
 * `require` of the SDK resolves through the runtime's NODE_PATH (ESM `import` would not); `import.meta.url` is
 * rewritten to the bundle's own file URL so code that locates files next to itself works. A handler's adapters are
 * behind `import()` (lambdas/adapters/wiring/lambda-ports.ts), which esbuild turns into lazily initialised modules of
 * the same file: they, and the SDK packages they require, load on the first invocation, not at module init.
 */
export const TASK_BUNDLING = {
  format: 'cjs',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  target: TASK_NODE_TARGET,
  platform: 'node',
  mainFields: ['module', 'main'],
  external: TASK_EXTERNAL_MODULES,
  /**
   * Packages replaced by a stand-in, paths relative to the project root (esbuild's working directory in CDK bundling
   * and in the bench). source-map serves only source maps of compiled Handlebars templates, which no task asks for;
   * to-buffer reaches typed arrays through polyfill packages Node does not need, and pako is zlib in JavaScript where
   * Node has its own (see the stubs). The X-Ray SDK (Powertools Tracer) requires `@smithy/service-error-classification`
   * 2.x, which the SDK layer does not hold (its clients do not need it): bundled from our node_modules; its SDK v2
   * patcher, which no task calls, requires `semver` for one version check (a stand-in does it). (The API
   * servers are reached over Node's https, adapters/kube/kube-server-transport.ts: no client-node, so none of its
   * kubeconfig features.) aws-local-stepfunctions, which the tasks that rehearse an update carry, imports Lambda's
   * client to invoke functions the in-process runner never invokes (it runs every task itself): a stand-in refuses.
   */
  alias: {
    '@aws-sdk/client-lambda': './infra/constructs/bundling-stubs/lambda-invoke.cjs',
    '@aws-sdk/credential-providers': './infra/constructs/bundling-stubs/lambda-invoke.cjs',
    'source-map': './infra/constructs/bundling-stubs/source-map.cjs',
    'to-buffer': './infra/constructs/bundling-stubs/to-buffer.cjs',
    pako: './infra/constructs/bundling-stubs/pako.cjs',
    semver: './infra/constructs/bundling-stubs/semver.cjs',
    '@smithy/service-error-classification': './node_modules/@smithy/service-error-classification/dist-cjs/index.js',
  },
  define: { 'import.meta.url': '__clmImportMetaUrl' },
  banner: 'const __clmImportMetaUrl=require("url").pathToFileURL(__filename).href;',
  loader: { '.hbs': 'text' },
  /**
   * `import()` of a package left to the runtime (the SDK clients a port module loads on first use) becomes `require`:
   * Node's ES module resolution ignores NODE_PATH, where the SDK layer's packages are found.
   */
  supported: { 'dynamic-import': false },
} as const;

export interface TaskFunctionProps {
  /** The handler file (TypeScript), exporting `handler`. */
  readonly entry: string;
  /** Progress table; its name goes to `CLM_TABLE_NAME`. Grants are the caller's business. */
  readonly table: ITable;
  /** Artefact bucket; its name goes to `CLM_ARTIFACT_BUCKET`. Grants are the caller's business. */
  readonly artifactBucket: IBucket;
  /**
   * Memory in MB.
   * @default DEFAULT_TASK_MEMORY_MB (512)
   */
  readonly memorySize?: number;
  /**
   * Tasks return IN_PROGRESS instead of blocking, so a short timeout catches a hung call early.
   * @default Duration.seconds(60)
   */
  readonly timeout?: Duration;
  /**
   * Log retention of the function's own log group.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * Powertools service name (`POWERTOOLS_SERVICE_NAME`).
   * @default 'clm'
   */
  readonly serviceName?: string;
  /**
   * Extra environment variables, merged over the house ones.
   * @default - only the house variables
   */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * @default - no description
   */
  readonly description?: string;
  /**
   * Concurrent executions reserved for (and capping) the function.
   * @default - unreserved: it shares the account's unreserved concurrency
   */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Project root for esbuild (where `package-lock.json` lives).
   * @default - the directory of the nearest package-lock.json above the entry
   */
  readonly projectRoot?: string;
  /**
   * Puts the rehearsal engine (runtime/rehearsal/rehearsal-engine.ts, bundled as the handler is) beside the handler,
   * for the tasks whose `rehearsals` port loads it on their first rehearsal (infra/constructs/task-bundle.ts).
   * @default false
   */
  readonly rehearsalEngine?: boolean;
}

/** The shell command that bundles the rehearsal engine into `outputDir` (task-bundle.ts run as a script). */
function rehearsalEngineCommand(projectRoot: string, outputDir: string): string {
  const tsx = join(projectRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const script = join(projectRoot, 'infra', 'constructs', 'task-bundle.ts');
  return [process.execPath, tsx, script, 'rehearsal-engine', outputDir].map((part) => `"${part}"`).join(' ');
}

/** NodejsFunction's bundling of a task: TASK_BUNDLING, and the rehearsal engine beside the handler where asked. */
function taskBundling(projectRoot: string, rehearsalEngine: boolean): BundlingOptions {
  const bundling: { -readonly [K in keyof BundlingOptions]: BundlingOptions[K] } = {
    format: OutputFormat.CJS,
    minify: TASK_BUNDLING.minify,
    sourceMap: TASK_BUNDLING.sourcemap,
    sourcesContent: TASK_BUNDLING.sourcesContent,
    target: TASK_BUNDLING.target,
    mainFields: [...TASK_BUNDLING.mainFields],
    externalModules: [...TASK_BUNDLING.external],
    esbuildArgs: {
      '--alias': Object.entries(TASK_BUNDLING.alias).map(([name, path]) => `${name}=${path}`),
      '--supported:dynamic-import': String(TASK_BUNDLING.supported['dynamic-import']),
    },
    define: { 'import.meta.url': TASK_BUNDLING.define['import.meta.url'] },
    banner: TASK_BUNDLING.banner,
    loader: { ...TASK_BUNDLING.loader },
  };
  if (rehearsalEngine)
    bundling.commandHooks = {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_inputDir, outputDir) => [rehearsalEngineCommand(projectRoot, outputDir)],
    };
  return bundling;
}

/** NodejsFunction's default project root: the directory of the nearest package-lock.json above the entry. */
function lockFileDir(entry: string): string {
  for (let dir = dirname(resolve(entry)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package-lock.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`TaskFunction: no package-lock.json above ${entry}; give projectRoot`);
  }
}

/**
 * A Lambda task of the CLM state machines with the house defaults: Node.js 22 on arm64, 512 MB, 60 s, X-Ray active,
 * JSON logs into its own log group kept a month, the AWS SDK from the stack's SDK layer, and an execution role that may only write its
 * own logs and traces until the caller grants more.
 *
 * @example
 * const fn = new TaskFunction(this, 'Prepare', { entry: 'lambdas/handlers/prepare.ts', table, artifactBucket });
 * table.grantReadWriteData(fn);
 */
export class TaskFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: TaskFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An explicit role instead of the AWSLambdaBasicExecutionRole managed policy: logs only to its own group.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );

    const projectRoot = props.projectRoot ?? lockFileDir(props.entry);
    const bundling = taskBundling(projectRoot, props.rehearsalEngine ?? false);

    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      runtime: TASK_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_TASK_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(60),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      role,
      description: props.description,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      projectRoot,
      bundling,
      layers: [sdkLayer(Stack.of(scope), { projectRoot, runtime: TASK_RUNTIME, architecture: Architecture.ARM_64 })],
      environment: {
        [TASK_ENV.serviceName]: props.serviceName ?? CLM_SERVICE_NAME,
        [TASK_ENV.tableName]: props.table.tableName,
        [TASK_ENV.artifactBucket]: props.artifactBucket.bucketName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
    });
    acknowledge(
      this,
      'AwsSolutions-L1',
      'Pinned to nodejs22.x on purpose: the bundle targets node22 and the toolchain is verified on it; moving to nodejs24.x is a deliberate upgrade.',
    );
  }
}
