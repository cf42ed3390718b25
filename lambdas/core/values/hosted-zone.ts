/** The API server host minus its first label (CLM §4.3): `https://kube-1.teapot.example.org` → `teapot.example.org`. */
export function hostedZone(apiServerUrl: string): string {
  let host: string;
  try {
    host = new URL(apiServerUrl.includes('://') ? apiServerUrl : `https://${apiServerUrl}`).hostname;
  } catch {
    return '';
  }
  const dot = host.indexOf('.');
  return dot < 0 ? '' : host.slice(dot + 1);
}
