// Stands in for `jsonpath-plus` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts).
// @kubernetes/client-node calls it only for kubeconfig users with the legacy `gcp` or `azure` auth providers; the tasks
// authenticate with a bearer token (runtime/cloud/kube-factory.ts), so it never runs there. The CLI keeps the real one.
'use strict';
module.exports = {
  JSONPath() {
    throw new Error('kubeconfig gcp/azure auth-providers are not supported in the Lambda tasks');
  },
};
