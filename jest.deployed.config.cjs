/**
 * Jest for the deployed tier (test/deployed/, `npm run test:deployed`): test/deployed/run.sh starts MiniStack and the
 * Kubernetes control plane and exports their endpoints first; the suite deploys the app itself (cdk bootstrap +
 * cdk deploy --all) and then drives it through its deployed interfaces. One worker: one emulator, one deployment.
 */
const unit = require('./jest.config.cjs');

module.exports = {
  ...unit,
  roots: ['<rootDir>/test/deployed'],
  testMatch: ['**/*.deployed.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  maxWorkers: 1,
  testTimeout: 600000,
};
