// ESLint: typescript-eslint's recommended rules, plus the architecture rule that keeps lambdas/core pure.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.cache/**', 'dist/**', 'coverage/**', '**/*.cjs', 'bin/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use `as const` objects and unions, not enum.' },
      ],
    },
  },
  {
    files: ['lambdas/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*', '@smithy/*', 'aws-cdk-lib', 'aws-cdk-lib/*'],
              message: 'lambdas/core is pure: no AWS SDK or CDK.',
            },
            {
              group: ['@kubernetes/client-node'],
              message: 'lambdas/core is pure: Kubernetes goes through the KubeCluster port.',
            },
            { group: ['handlebars'], message: 'lambdas/core is pure: templates go through the TemplateEngine port.' },
            {
              group: ['@octokit/*', 'isomorphic-git', 'isomorphic-git/*'],
              message: 'lambdas/core is pure: use a port.',
            },
            {
              group: [
                '**/adapters/**',
                '**/adapters',
                '**/handlers/**',
                'node:fs',
                'node:fs/*',
                'fs',
                'node:http',
                'node:https',
                'node:net',
                'node:child_process',
              ],
              message: 'lambdas/core is pure: no adapters, handlers, filesystem or network.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
