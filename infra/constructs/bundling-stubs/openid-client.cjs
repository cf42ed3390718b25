// Stands in for `openid-client` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts).
// @kubernetes/client-node calls it only for a kubeconfig user with the `oidc` auth provider; the tasks authenticate with
// a bearer token (runtime/cloud/kube-factory.ts), so it never runs there. The CLI keeps the real one.
'use strict';
const unsupported = () => {
  throw new Error('kubeconfig oidc auth-provider is not supported in the Lambda tasks');
};
module.exports = { discovery: unsupported, refreshTokenGrant: unsupported };
