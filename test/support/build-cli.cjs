// Global setup of the end-to-end tier: (re)build the prebuilt CLI when a source changed since it was built, so the
// runs that start `node bin/clm.mjs` exercise the bundle users run (and print no fall-back notice).
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = () => {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'bin', 'build-cli.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
};
