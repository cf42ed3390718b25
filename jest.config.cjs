/**
 * Jest, fast tier (`npm run test:fast`): unit, contract, ASL static and local runs over fakes, CDK assertions, adapters against
 * loopback servers and DynamoDB Local. The end-to-end runs over the simulated world are jest.e2e.config.cjs.
 * esbuild transpiles TS (and the ESM-only packages we use) to CJS; `tsc --noEmit` type-checks separately.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/integration/',
    '<rootDir>/test/e2e/',
    '<rootDir>/test/deployed/',
  ],
  transform: { '^.+\\.(ts|js|mjs)$': '<rootDir>/test/support/esbuild-transform.cjs' },
  transformIgnorePatterns: [
    '/node_modules/(?!(@kubernetes/client-node|openid-client|oauth4webapi|jose|@octokit|universal-user-agent|universal-github-app-jwt|toad-cache|content-type|json-with-bigint|before-after-hook|aws-local-stepfunctions)/)',
  ],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  // @octokit/webhooks-methods exports only an `import` entry; Jest resolves with `require` and would not find it.
  // zod's English messages (lambdas/shared/zod.ts) are imported by their ESM file; under Jest the CJS twin loads.
  moduleNameMapper: {
    '^zod/v4/locales/en\\.js$': '<rootDir>/node_modules/zod/v4/locales/en.cjs',
    '^@octokit/webhooks-methods$': '<rootDir>/node_modules/@octokit/webhooks-methods/dist-node/index.js',
  },
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
  testTimeout: 60000,
  // Child processes (DynamoDB Local, git http-backend) are stopped in afterAll, but a slow JVM exit must not hold CI.
  forceExit: true,
};
