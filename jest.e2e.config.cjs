/**
 * The end-to-end tier (`npm run test:e2e`): `clm` and the state machines run over the simulated world, killed and
 * resumed. These runs are bounded by their work (the simulated clock, rolls of a fixed number of nodes, every kill
 * point of a finite list), not by wall time, which a loaded CI machine stretches: the timeout only catches a hang.
 */
const base = require('./jest.config.cjs');

module.exports = {
  ...base,
  roots: ['<rootDir>/test/e2e'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 30 * 60 * 1000,
  // `clm` runs from the prebuilt CLI (bin/clm.mjs): rebuilt first if a source changed since.
  globalSetup: '<rootDir>/test/support/build-cli.cjs',
};
