// Stands in for `socks-proxy-agent` in the Lambda bundles (TASK_BUNDLING.alias in infra/constructs/task-function.ts).
// @kubernetes/client-node uses it only for a kubeconfig cluster with a socks:// proxy-url; the tasks reach API servers
// with a bearer token and no kubeconfig file (runtime/cloud/kube-factory.ts), so it never runs there, and with its
// dependencies (socks, ip-address, smart-buffer) it is ~70 KB of every bundle with a kube port. The CLI keeps the real one.
'use strict';
class SocksProxyAgent {
  constructor() {
    throw new Error('SOCKS proxies (kubeconfig proxy-url socks://) are not supported in the Lambda tasks');
  }
}
module.exports = { SocksProxyAgent };
