/**
 * Jest for the real-component integration suite (test/integration/, `npm run test:integration`).
 * test/integration/run.sh starts moto, the Kubernetes control plane and exports their endpoints first;
 * DynamoDB Local is started by the tests themselves (test/support/dynamodb-local.ts).
 * One worker: moto and the control plane are shared, stateful servers.
 */
const unit = require('./jest.config.cjs');

module.exports = {
  ...unit,
  roots: ['<rootDir>/test/integration'],
  testMatch: ['**/*.int.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  maxWorkers: 1,
  testTimeout: 180000,
  testSequencer: '<rootDir>/test/integration/support/sequencer.cjs',
};
