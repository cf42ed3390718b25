// ESLint: typescript-eslint's recommended rules, the size limits, and the architecture of lambdas/ as rules, so the
// layering is checked, not remembered (README "How it is built"):
//   core, contracts, ports, shared  the domain: pure, no I/O, nothing from the outer rooms
//   adapters, sim                   implementations of ports: only the domain (never tasks, runtime, CLI, infra)
//   tasks                           one file per Lambda task: the domain and ports, never an adapter
//   runtime, cli                    composition roots: anything in lambdas/
//   infra                           the CDK app: the task catalogue and the runtime's plain-data contracts only
import tseslint from 'typescript-eslint';

/** Import patterns that leave a room, by the rooms they reach. */
const ROOMS = {
  adapters: ['**/adapters', '**/adapters/**'],
  sim: ['**/sim', '**/sim/**'],
  tasks: ['**/tasks', '**/tasks/**'],
  runtime: ['**/runtime', '**/runtime/**'],
  cli: ['**/cli', '**/cli/**'],
  infra: ['**/infra', '**/infra/**'],
};
const SDKS = ['@aws-sdk/*', '@smithy/*', 'aws-cdk-lib', 'aws-cdk-lib/*', '@kubernetes/client-node', 'handlebars'];
const IO = ['node:fs', 'node:fs/*', 'fs', 'node:http', 'node:https', 'node:net', 'node:child_process'];
const NETWORK_LIBS = ['@octokit/*', 'isomorphic-git', 'isomorphic-git/*'];

/** A no-restricted-imports rule that keeps `files` out of `rooms` (and out of `extra` patterns). */
function boundary(files, room, rooms, extra = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...rooms.map((name) => ({
              group: ROOMS[name],
              message: `${room} must not import from ${name}/ (see the layering at the top of eslint.config.js).`,
            })),
            ...extra,
          ],
        },
      ],
    },
  };
}

const PURE = [
  { group: SDKS, message: 'The domain is pure: SDKs, client-node and handlebars live behind ports, in adapters/.' },
  { group: [...IO, ...NETWORK_LIBS], message: 'The domain is pure: no filesystem, network or git; use a port.' },
];
const NO_SDK = [{ group: SDKS, message: 'Tasks reach AWS, Kubernetes and templates through their ports only.' }];

const RESTRICTED_SYNTAX = [
  { selector: 'TSEnumDeclaration', message: 'Use `as const` objects and unions, not enum.' },
  {
    // zod's `z` export is one object holding every schema: a bundle importing it keeps all of zod (+360 KB).
    selector:
      "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
    message: "Write `import * as z from 'zod'`: esbuild then keeps only the schemas used.",
  },
];
// The Lambda SDK layer holds only the EC2 commands lambdas/adapters/aws/ec2-api.ts exports (infra/sdk-layer-build.ts).
const EC2_API_MESSAGE =
  "Take EC2 values from './ec2-api' (the SDK layer has only what it exports); types may come from the package.";
const EC2_THROUGH_API = [
  {
    selector:
      "ImportDeclaration[source.value='@aws-sdk/client-ec2'][importKind!='type'] > ImportSpecifier[importKind!='type']",
    message: EC2_API_MESSAGE,
  },
  {
    selector: "ImportDeclaration[source.value='@aws-sdk/client-ec2'] > ImportNamespaceSpecifier",
    message: EC2_API_MESSAGE,
  },
  { selector: "ImportExpression[source.value='@aws-sdk/client-ec2']", message: EC2_API_MESSAGE },
];
// Lambda code uses zod/mini through lambdas/shared/zod.ts: classic zod's chained methods put 90–103 KB into each bundle.
const ZOD_MINI_MESSAGE =
  "In lambdas/, `import * as z from '<path>/shared/zod'` (zod/mini with zod's English messages).";
const ZOD_THROUGH_MINI = [
  {
    selector: "ImportDeclaration[source.value=/^zod(\\/v4)?(\\/classic)?$/][importKind!='type']",
    message: ZOD_MINI_MESSAGE,
  },
  { selector: 'ImportExpression[source.value=/^zod/]', message: ZOD_MINI_MESSAGE },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'cdk.out/**',
      '.cache/**',
      '.build/**',
      'dist/**',
      'coverage/**',
      '**/*.cjs',
      'bin/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX],
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/adapters/aws/ec2-api.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RESTRICTED_SYNTAX, ...EC2_THROUGH_API, ...ZOD_THROUGH_MINI] },
  },
  {
    files: ['lambdas/**/*.ts', 'infra/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  // Tests: the same file limit (a test file per subject); no function limit, describe blocks are long by nature.
  { files: ['test/**/*.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  boundary(['lambdas/core/**/*.ts'], 'lambdas/core', ['adapters', 'sim', 'tasks', 'runtime', 'cli', 'infra'], PURE),
  boundary(
    ['lambdas/contracts/**/*.ts'],
    'lambdas/contracts',
    ['adapters', 'sim', 'tasks', 'runtime', 'cli', 'infra'],
    PURE,
  ),
  boundary(['lambdas/ports/**/*.ts'], 'lambdas/ports', ['adapters', 'sim', 'tasks', 'runtime', 'cli', 'infra'], PURE),
  boundary(['lambdas/shared/**/*.ts'], 'lambdas/shared', ['adapters', 'sim', 'tasks', 'runtime', 'cli', 'infra']),
  boundary(['lambdas/adapters/**/*.ts'], 'lambdas/adapters', ['sim', 'tasks', 'runtime', 'cli', 'infra']),
  boundary(['lambdas/sim/**/*.ts'], 'lambdas/sim', ['adapters', 'tasks', 'runtime', 'cli', 'infra']),
  boundary(['lambdas/tasks/**/*.ts'], 'lambdas/tasks', ['adapters', 'sim', 'runtime', 'cli', 'infra'], NO_SDK),
  boundary(['lambdas/runtime/**/*.ts'], 'lambdas/runtime', ['cli', 'infra']),
  boundary(['lambdas/cli/**/*.ts'], 'lambdas/cli', ['infra']),
  boundary(
    ['infra/**/*.ts'],
    'infra',
    ['cli'],
    [
      {
        group: ['**/lambdas/adapters/**', '**/lambdas/sim/**'],
        message: 'infra derives from the task catalogue; it never loads adapters.',
      },
    ],
  ),
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
