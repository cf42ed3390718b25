import { hostedZone } from '../../../lambdas/core/values/hosted-zone';

describe('hostedZone', () => {
  it('drops the first label of the API server host (CLM §4.3)', () => {
    expect(hostedZone('https://kube-1.teapot.example.org')).toBe('teapot.example.org');
    expect(hostedZone('https://kube-1.teapot.example.org:443/path')).toBe('teapot.example.org');
  });

  it('accepts a URL without scheme and gives "" for a single label or garbage', () => {
    expect(hostedZone('kube-1.example.org')).toBe('example.org');
    expect(hostedZone('https://localhost')).toBe('');
    expect(hostedZone('::not a url::')).toBe('');
  });
});
