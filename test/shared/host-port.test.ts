import { hostAndPort } from '../../lambdas/shared/host-port';

describe('hostAndPort', () => {
  it.each([
    ['https://kube-1.example.org', 'kube-1.example.org:443'],
    ['http://127.0.0.1:8080/api', '127.0.0.1:8080'],
    ['http://registry.example.org/', 'registry.example.org:80'],
    ['https://[::1]:6443', '[::1]:6443'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, expected) => {
    expect(hostAndPort(url)).toBe(expected);
  });
});
