import { hashOf } from '../hash';
import type { AccountState } from '../world-state';
import { simCertificates } from './certificates';
import { CfnEvalError } from './cfn-intrinsics';
import type { Props, Provisioned, ResourceScope } from './cfn-resource-scope';

/**
 * `AWS::ElasticLoadBalancingV2::Listener`: an HTTPS or TLS listener needs a default certificate, and each certificate
 * must be an ISSUED ACM certificate of the account and region (Elastic Load Balancing answers `CertificateNotFound`
 * otherwise, and the stack fails) — also one that `load_balancer_certificate` names as given.
 */
export function listenerResource(scope: ResourceScope, props: Props): Provisioned {
  const { account } = scope;
  const protocol = String(props.Protocol ?? '');
  const certificates = (Array.isArray(props.Certificates) ? props.Certificates : []) as Props[];
  const arns = certificates.map((c) => c.CertificateArn);
  if ((protocol === 'HTTPS' || protocol === 'TLS') && arns.length === 0)
    throw new CfnEvalError(`ValidationError: a certificate must be specified for ${protocol} listeners`);
  const issued = issuedCertificates(scope);
  for (const arn of arns)
    if (typeof arn !== 'string' || !issued.has(arn))
      throw new CfnEvalError(
        `CertificateNotFound: Certificate '${String(arn)}' not found (no ISSUED ACM certificate of that ARN in ${account.accountId} ${account.region})`,
      );
  const balancer = String(props.LoadBalancerArn ?? '');
  const suffix = balancer.split('loadbalancer/')[1] ?? `net/unknown/${hashOf([balancer], 16)}`;
  const id = `arn:aws:elasticloadbalancing:${account.region}:${account.accountId}:listener/${suffix}/${hashOf([account.key, scope.stack.stackId, scope.logicalId], 16)}`;
  return { physicalId: id, attributes: { ListenerArn: id } };
}

/**
 * A classic load balancer's HTTPS and SSL listeners (`Listeners[].SSLCertificateId`): each needs a certificate, an ISSUED
 * ACM certificate of the account and region, as for ELBv2 (IAM server certificates are not modelled: refused too).
 */
export function checkClassicListeners(scope: ResourceScope, props: Props): void {
  const listeners = (Array.isArray(props.Listeners) ? props.Listeners : []) as Props[];
  const secure = listeners.filter((l) => ['HTTPS', 'SSL'].includes(String(l.Protocol ?? '').toUpperCase()));
  if (!secure.length) return;
  const issued = issuedCertificates(scope);
  for (const listener of secure) {
    const arn = listener.SSLCertificateId;
    if (typeof arn !== 'string' || !arn)
      throw new CfnEvalError(
        `ValidationError: a certificate must be specified for ${String(listener.Protocol)} listeners`,
      );
    if (!issued.has(arn))
      throw new CfnEvalError(
        `CertificateNotFound: Server Certificate not found for the key: ${arn} (no ISSUED ACM certificate of that ARN in ${scope.account.accountId} ${scope.account.region})`,
      );
  }
}

/** The account's ISSUED certificates: the scenario's list, else those the simulator issued for its clusters' API hosts. */
function issuedCertificates(scope: ResourceScope): Set<string> {
  const { ctx, account } = scope;
  const clusters = Object.values(ctx.state.clusters).filter((c) => inAccount(c, account));
  const urls = clusters.length ? clusters.map((c) => c.apiServerUrl) : ['https://unknown.example.org'];
  return new Set(urls.flatMap((url) => simCertificates(ctx, account, url).map((c) => c.arn)));
}

const inAccount = (cluster: { accountId: string; region: string }, account: AccountState) =>
  cluster.accountId === account.accountId && cluster.region === account.region;
