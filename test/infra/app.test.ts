// The CDK app as `cdk synth` runs it (cdk.json: tsx infra/app.ts), in a child process: CDK's CloudFormation
// validation and cdk-nag both run and must pass. Bundling is skipped here (bench/lambda.bench.ts bundles for real).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, cdkJsonContext } from './synth';

function synthApp(context: Record<string, unknown>, env: Record<string, string> = {}) {
  const outdir = mkdtempSync(join(tmpdir(), 'clm-synth-'));
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      CDK_DEFAULT_ACCOUNT: '',
      CDK_DEFAULT_REGION: '',
      ...env,
      CDK_OUTDIR: outdir,
      // As the CLI does: cdk.json's context (the feature flags), then the command line's.
      CDK_CONTEXT_JSON: JSON.stringify({
        ...cdkJsonContext(),
        'aws:cdk:bundling-stacks': [],
        ...context,
      }),
      AWS_EC2_METADATA_DISABLED: 'true',
    },
  });
  return { ...result, outdir };
}

/** What the CDK CLI sets whenever it finds credentials (`cdk deploy`, `cdk synth` with a profile). */
const WITH_CREDENTIALS = { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'eu-west-1' };

describe('infra/app.ts', () => {
  it.each([
    ['no credentials (environment-agnostic stacks)', {}],
    ['the account and region the CLI found (concrete ARNs)', WITH_CREDENTIALS],
  ])(
    'synthesizes both stacks with validation and cdk-nag passing: %s',
    (_, env: Record<string, string>) => {
      const run = synthApp(
        {
          registryUri: 'https://registry.example.org',
          configSources: 'main:git:https://github.com/example/config.git',
        },
        env,
      );
      try {
        expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ status: 0, stderr: '' });
        const manifest = JSON.parse(readFileSync(join(run.outdir, 'manifest.json'), 'utf8'));
        expect(Object.keys(manifest.artifacts)).toEqual(expect.arrayContaining(['ClmStateful', 'ClmWorkflow']));
        expect(manifest.artifacts.ClmWorkflow.environment).toBe(
          env.CDK_DEFAULT_ACCOUNT ? 'aws://123456789012/eu-west-1' : 'aws://unknown-account/unknown-region',
        );
        const workflow = JSON.parse(readFileSync(join(run.outdir, 'ClmWorkflow.template.json'), 'utf8'));
        const prepare = Object.entries<any>(workflow.Resources).find(
          ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('Prepare'),
        )![1];
        expect(prepare.Properties.Environment.Variables.CLM_REGISTRY).toBe('https://registry.example.org');
        expect(run.stdout + run.stderr).not.toMatch(/AwsSolutions-/);
      } finally {
        rmSync(run.outdir, { recursive: true, force: true });
      }
    },
    180_000,
  );

  it('adds ClmClusterAccess only when clmAccountId is set, and then needs an ExternalId', () => {
    const run = synthApp(
      {
        clmAccountId: '123456789012',
        externalId: 'clm-ext-1',
        assumedRoleName: 'clm',
        clusterAccountIds: '210987654321',
      },
      { CDK_DEFAULT_ACCOUNT: '210987654321', CDK_DEFAULT_REGION: 'eu-west-1' },
    );
    try {
      expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ status: 0, stderr: '' });
      const manifest = JSON.parse(readFileSync(join(run.outdir, 'manifest.json'), 'utf8'));
      expect(Object.keys(manifest.artifacts)).toEqual(expect.arrayContaining(['ClmClusterAccess']));
      const access = JSON.parse(readFileSync(join(run.outdir, 'ClmClusterAccess.template.json'), 'utf8'));
      const roles = Object.values<any>(access.Resources).filter((r) => r.Type === 'AWS::IAM::Role');
      expect(roles.map((r) => r.Properties.RoleName).sort()).toEqual(['clm', 'clm-stacks']);
      expect(run.stdout + run.stderr).not.toMatch(/AwsSolutions-/);
    } finally {
      rmSync(run.outdir, { recursive: true, force: true });
    }
    const without = synthApp({ clmAccountId: '123456789012' }, { CDK_VALIDATION: 'false' });
    try {
      expect(without.status).not.toBe(0);
      expect(without.stderr).toContain('ClmClusterAccess needs externalId');
    } finally {
      rmSync(without.outdir, { recursive: true, force: true });
    }
  }, 180_000);

  it('fails with a readable message for a bad setting', () => {
    const run = synthApp({}, { CDK_VALIDATION: 'false', CLM_CONFIG_SOURCES: 'main:dir:/srv/config' });
    try {
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('expected NAME:git:URL entries separated by commas, got "main:dir:/srv/config"');
    } finally {
      rmSync(run.outdir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('cdk.json', () => {
  it('sets every feature flag aws-cdk-lib recommends, keeping only strong cross-stack references (infra/app.ts)', () => {
    // Arrange
    const recommended = JSON.parse(
      readFileSync(join(REPO_ROOT, 'node_modules/aws-cdk-lib/recommended-feature-flags.json'), 'utf8'),
    ) as Record<string, unknown>;

    // Act
    const context = cdkJsonContext();

    // Assert
    expect(context).toEqual({ ...recommended, '@aws-cdk/core:defaultCrossStackReferences': 'strong' });
  });
});
