/**
 * Jest runs the integration suites in a fixed order, cheapest and most independent first, and the end-to-end run
 * last: the suites share one moto server and one control plane, and the kube suite expects a cluster without the
 * example workloads (it cleans up after itself; the end-to-end test does not need to).
 */
const Sequencer = require('@jest/test-sequencer').default;

const ORDER = ['/dynamodb/', '/aws/', '/harness/', '/kube/', '/e2e/'];
const rank = (path) => {
  const index = ORDER.findIndex((part) => path.includes(part));
  return index === -1 ? ORDER.length : index;
};

class IntegrationSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  }
}

module.exports = IntegrationSequencer;
