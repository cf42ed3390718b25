import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AwsClients } from '../../../lambdas/adapters/aws/aws-clients';
import { propagateLaunchTemplateVersions } from './moto-shims';

/**
 * MOTO-SPECIFIC SHIM for processes we do not control (`clm provision` in a child process): a loopback HTTP proxy in
 * front of moto that, right after a successful CloudFormation `UpdateStack` and before the caller sees the answer,
 * moves the stack's Auto Scaling groups to the new launch-template version (propagateLaunchTemplateVersions) — what
 * AWS CloudFormation does as part of the update. Without it the caller may look at its instances before a background
 * loop had the chance, and find nothing outdated. Everything else passes through unchanged.
 */
export interface MotoUpdateProxy {
  readonly endpoint: string;
  /** UpdateStack calls that moved at least one group. */
  readonly propagated: string[];
  /** Every request passed on: the `Action` of query-protocol calls (CloudFormation, EC2, Auto Scaling), else `METHOD path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startMotoUpdateProxy(
  motoEndpoint: string,
  clients: Pick<AwsClients, 'cloudFormation' | 'ec2' | 'autoScaling'>,
): Promise<MotoUpdateProxy> {
  const target = new URL(motoEndpoint);
  const propagated: string[] = [];
  const requests: string[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const form = /x-www-form-urlencoded/.test(incoming.headers['content-type'] ?? '')
        ? new URLSearchParams(body.toString())
        : undefined;
      // Query-protocol calls name their action in the form; JSON-protocol ones (ACM, KMS) in X-Amz-Target.
      const amzTarget = incoming.headers['x-amz-target'];
      const operation = typeof amzTarget === 'string' ? amzTarget.slice(amzTarget.lastIndexOf('.') + 1) : undefined;
      requests.push(form?.get('Action') ?? operation ?? `${incoming.method ?? 'GET'} ${incoming.url ?? ''}`);
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const reply = () => {
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              outgoing.end(Buffer.concat(parts));
            };
            const stackName =
              form?.get('Action') === 'UpdateStack' && (answer.statusCode ?? 500) < 300 ? form.get('StackName') : null;
            if (!stackName) return reply();
            propagateLaunchTemplateVersions(clients, stackName)
              .then((moved) => {
                if (moved.length > 0) propagated.push(stackName);
              })
              .catch(() => undefined)
              .finally(reply);
          });
        },
      );
      upstream.on('error', (error) => {
        outgoing.writeHead(502);
        outgoing.end(`moto-update-proxy: ${error.message}`);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    propagated,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
