const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * `host:port` of a URL, the port spelled out even when the scheme implies it (`https://kube.example.org` →
 * `kube.example.org:443`), so a message about a refused or unreachable connection says exactly where it went.
 * A string that is not a URL comes back as is.
 */
export function hostAndPort(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || DEFAULT_PORTS[parsed.protocol];
    return port ? `${parsed.hostname}:${port}` : parsed.host;
  } catch {
    return url;
  }
}
