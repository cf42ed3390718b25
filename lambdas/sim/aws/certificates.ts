import type { CertificateSummary } from '../../core/values/certificate-match';
import { ETCD_KMS_KEY_ALIAS } from '../../core/render/etcd-settings';
import { hostedZone } from '../../core/values/hosted-zone';
import { ConfigError } from '../../shared/errors';
import { hashOf } from '../hash';
import type { SimContext } from '../sim-context';
import type { AccountState } from '../world-state';
import { findKey } from './access-model';

const DAY = 24 * 3600 * 1000;

/**
 * The ISSUED ACM certificates of a simulated account: the scenario's (`accounts[].certificates`) when it lists the
 * account, else one for `*.<zone>` and `<zone>` of the API server host asked about. They are publicly trusted
 * (they verify for the names they cover); valid from 30 days before the world started for a year, unless given.
 */
export function simCertificates(ctx: SimContext, account: AccountState, apiServerUrl: string): CertificateSummary[] {
  const start = ctx.state.startTime;
  const listed = (ctx.state.scenario.accounts ?? []).find(
    (a) => a.account === account.accountId && a.region === account.region,
  )?.certificates;
  const arn = (seed: string) => {
    const h = hashOf([account.key, seed], 32);
    return `arn:aws:acm:${account.region}:${account.accountId}:certificate/${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  };
  if (listed)
    return listed.map((c) => ({
      arn: c.arn ?? arn(c.domains.join(',')),
      domainNames: c.domains,
      notBefore: c.notBefore ? Date.parse(c.notBefore) : start - 30 * DAY,
      notAfter: c.notAfter ? Date.parse(c.notAfter) : start + 365 * DAY,
      verified: true,
    }));
  const host = new URL(apiServerUrl.includes('://') ? apiServerUrl : `https://${apiServerUrl}`).hostname;
  const zone = hostedZone(apiServerUrl);
  return [
    {
      arn: arn(host),
      domainNames: zone ? [`*.${zone}`, zone] : [host],
      notBefore: start - 30 * DAY,
      notAfter: start + 365 * DAY,
      verified: true,
    },
  ];
}

/** `Values.etcd_kms_key_arn`: the key `alias/etcd-cluster` names in the account, or a ConfigError as CLM fails. */
export function etcdKeyArn(ctx: SimContext, account: AccountState, clusterId: string): string {
  const key = findKey(ctx, account, ETCD_KMS_KEY_ALIAS);
  if (!key)
    throw new ConfigError(
      `KMS key ${ETCD_KMS_KEY_ALIAS} does not exist in ${account.key} (the etcd stack needs it: create the key and alias first)`,
      { location: { clusterId } },
    );
  return String(key.model.arn);
}
