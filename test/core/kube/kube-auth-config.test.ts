import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubeAuthConfig } from '../../../lambdas/core/kube/kube-auth-config';
import { EMPTY_STATUS } from '../../../lambdas/core/model/cluster';
import type { Cluster } from '../../../lambdas/core/model/cluster';
import { ConfigError } from '../../../lambdas/shared/errors';

const CA = Buffer.from(readFileSync(join(__dirname, '../../fixtures/tls/ca.pem'))).toString('base64');

function cluster(configItems: Record<string, string>, overrides: Partial<Cluster> = {}): Cluster {
  return {
    id: 'aws:123456789012:eu-central-1:kube-1',
    alias: 'kube-1',
    localId: 'kube-1',
    apiServerUrl: 'https://kube-1.example.org',
    channel: 'stable',
    configItems,
    criticalityLevel: 1,
    environment: 'test',
    infrastructureAccount: 'aws:123456789012',
    lifecycleStatus: 'ready',
    nodePools: [],
    provider: 'zalando-aws',
    region: 'eu-central-1',
    status: EMPTY_STATUS,
    ...overrides,
  };
}

describe('kubeAuthConfig', () => {
  it('uses the default mode when the cluster has no kube_auth', () => {
    expect(kubeAuthConfig(cluster({}), 'token')).toEqual({ mode: 'token' });
    expect(kubeAuthConfig(cluster({}), 'kubeconfig')).toEqual({ mode: 'kubeconfig' });
  });

  it('reads each mode with its own items; the CA bundle in every mode', () => {
    expect(kubeAuthConfig(cluster({ kube_ca_data: CA, kube_token_secret: 'clm/kube-1' }), 'token')).toEqual({
      mode: 'token',
      caData: CA,
      tokenSecret: 'clm/kube-1',
    });
    expect(
      kubeAuthConfig(cluster({ kube_auth: 'kubeconfig', kube_context: 'prod', kube_ca_data: CA }), 'token'),
    ).toEqual({ mode: 'kubeconfig', context: 'prod', caData: CA });
    expect(kubeAuthConfig(cluster({ kube_auth: 'eks', kube_ca_data: CA }), 'token')).toEqual({
      mode: 'eks',
      caData: CA,
      eksClusterName: 'aws:123456789012:eu-central-1:kube-1',
    });
  });

  it('names the EKS cluster as CLM does (the alias for zalando-eks) unless kube_eks_cluster_name says otherwise', () => {
    const eks = cluster({ kube_auth: 'eks', kube_ca_data: CA }, { provider: 'zalando-eks', alias: 'payments' });
    expect(kubeAuthConfig(eks, 'token')).toMatchObject({ eksClusterName: 'payments' });
    const named = cluster({ kube_auth: 'eks', kube_ca_data: CA, kube_eks_cluster_name: 'pay-1' });
    expect(kubeAuthConfig(named, 'token')).toMatchObject({ eksClusterName: 'pay-1' });
  });

  it('authenticates zalando-eks clusters with EKS tokens and the CA EKS reported, as CLM', () => {
    const eks = cluster({ eks_certificate_authority_data: CA }, { provider: 'zalando-eks', alias: 'payments' });
    const own = cluster(
      { eks_certificate_authority_data: 'bm90IGEgY2VydA==', kube_ca_data: CA },
      { provider: 'zalando-eks' },
    );

    expect(kubeAuthConfig(eks, 'token')).toEqual({ mode: 'eks', caData: CA, eksClusterName: 'payments' });
    expect(kubeAuthConfig(own, 'token')).toMatchObject({ mode: 'eks', caData: CA });
    expect(kubeAuthConfig(eks, 'kubeconfig')).toMatchObject({ mode: 'kubeconfig', caData: CA });
    expect(kubeAuthConfig(cluster({ kube_auth: 'token' }, { provider: 'zalando-eks' }), 'token').mode).toBe('token');
    expect(() => kubeAuthConfig(cluster({}, { provider: 'zalando-eks' }), 'token')).toThrow(
      /creation hook writes it as eks_certificate_authority_data/,
    );
    // zalando-aws clusters never take the EKS item.
    expect(kubeAuthConfig(cluster({ eks_certificate_authority_data: CA }), 'token')).toEqual({ mode: 'token' });
  });

  it.each([
    ['an unknown mode', { kube_auth: 'oidc' }, 'config_items.kube_auth: "oidc" is not one of token, eks, kubeconfig'],
    [
      'a CA that is no PEM',
      { kube_ca_data: 'bm90IGEgY2VydA==' },
      'config_items.kube_ca_data: expected base64 of a PEM CA bundle',
    ],
    [
      'a CA not in base64',
      { kube_ca_data: '-----BEGIN CERTIFICATE-----' },
      'config_items.kube_ca_data: expected base64',
    ],
    ['eks without a CA', { kube_auth: 'eks' }, 'config_items.kube_ca_data: is required with kube_auth eks'],
    [
      'a token secret with eks',
      { kube_auth: 'eks', kube_ca_data: CA, kube_token_secret: 's' },
      'config_items.kube_token_secret: is not used with kube_auth eks',
    ],
    ['a context with token', { kube_context: 'prod' }, 'config_items.kube_context: is not used with kube_auth token'],
  ])('fails on %s, naming the cluster and the item', (_what, items, message) => {
    expect(() => kubeAuthConfig(cluster(items), 'token')).toThrow(ConfigError);
    expect(() => kubeAuthConfig(cluster(items), 'token')).toThrow(
      `cluster aws:123456789012:eu-central-1:kube-1, field ${message}`,
    );
  });
});
