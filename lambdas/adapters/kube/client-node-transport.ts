/**
 * A KubeTransport over client-node's own HTTP stack: its fetch library, TLS agent and the kubeconfig's authentication
 * (tokens, client certificates, exec plugins such as `aws eks get-token`). For kubeconfig contexts that need more than
 * a bearer token and a CA; the rest goes through kube-server-transport.ts, which carries no client-node.
 */
// Deep imports: the package's index also loads every API class and watch/exec/attach helpers (~130 KB in a bundle).
import { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
import { HttpMethod } from '@kubernetes/client-node/dist/gen/http/http.js';
import { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeTransport } from './kube-rest';

export function clientNodeTransport(kc: KubeConfig): KubeTransport {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('client-node transport: the kubeconfig selects no cluster');
  const configuration = createConfiguration({ baseServer: new ServerConfiguration(cluster.server, {}) });
  return {
    server: cluster.server,
    async exchange({ method, path, query, headers, body }) {
      const context = configuration.baseServer.makeRequestContext(path, HttpMethod[method]);
      for (const [key, value] of query) context.setQueryParam(key, value);
      for (const [key, value] of Object.entries(headers)) context.setHeaderParam(key, value);
      if (body !== undefined) context.setBody(body);
      await kc.applySecurityAuthentication(context);
      const response = await configuration.httpApi.send(context).toPromise();
      return { status: response.httpStatusCode, text: await response.body.text() };
    },
  };
}
