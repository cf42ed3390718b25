import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { acknowledge } from '../nag';
import { TASK_ENV } from '../task-environment';

/** The runtime every task runs on (the bundle targets the same Node major). */
export const TASK_RUNTIME = Runtime.NODEJS_22_X;
export const TASK_NODE_TARGET = 'node22';

/**
 * esbuild options shared by the TaskFunction and `bench/lambda.bench.ts`: one CommonJS file with every dependency
 * bundled (the AWS SDK too, so its version is the one we test), minified, with a source map. CommonJS because
 * some dependencies are ESM-only but none needs top-level await, and a CJS bundle needs no `package.json` next to
 * it; `import.meta.url` is rewritten to the bundle's own file URL so code that locates files next to itself works.
 */
export const TASK_BUNDLING = {
  format: 'cjs',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  target: TASK_NODE_TARGET,
  platform: 'node',
  mainFields: ['module', 'main'],
  external: [] as string[],
  define: { 'import.meta.url': '__clmImportMetaUrl' },
  banner: 'const __clmImportMetaUrl=require("url").pathToFileURL(__filename).href;',
  loader: { '.hbs': 'text' },
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
   * @default 512
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
   * Project root for esbuild (where `package-lock.json` lives).
   * @default - the directory of the nearest package-lock.json above the entry
   */
  readonly projectRoot?: string;
}

/**
 * A Lambda task of the CLM state machines with the house defaults: Node.js 22 on arm64, 512 MB, 60 s, X-Ray active,
 * JSON logs into its own log group kept a month, the SDK bundled, and an execution role that may only write its
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
    role.addToPrincipalPolicy(new PolicyStatement({
      actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      resources: [logGroup.logGroupArn],
    }));

    const bundling: BundlingOptions = {
      format: OutputFormat.CJS,
      minify: TASK_BUNDLING.minify,
      sourceMap: TASK_BUNDLING.sourcemap,
      sourcesContent: TASK_BUNDLING.sourcesContent,
      target: TASK_BUNDLING.target,
      mainFields: [...TASK_BUNDLING.mainFields],
      externalModules: [...TASK_BUNDLING.external],
      define: { 'import.meta.url': TASK_BUNDLING.define['import.meta.url'] },
      banner: TASK_BUNDLING.banner,
      loader: { ...TASK_BUNDLING.loader },
    };

    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      runtime: TASK_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(60),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      role,
      description: props.description,
      projectRoot: props.projectRoot,
      bundling,
      environment: {
        [TASK_ENV.serviceName]: props.serviceName ?? 'clm',
        [TASK_ENV.tableName]: props.table.tableName,
        [TASK_ENV.artifactBucket]: props.artifactBucket.bucketName,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
    });
    acknowledge(this, 'AwsSolutions-L1', 'Pinned to nodejs22.x on purpose: the bundle targets node22 and the toolchain is verified on it; moving to nodejs24.x is a deliberate upgrade.');
  }
}
