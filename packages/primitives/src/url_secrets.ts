// URLs an operator gives a node (a followed source, an upstream RPC) may carry secrets: a password
// in the user part, an API key as a path segment (nearlite's `POST /<key>`) or a query value. Logs
// and client-facing errors show them without those.

/** The URL with its password, path and query values masked; origin and query names stay readable. */
export function urlForDisplay(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(an unparsable URL)';
  }
  if (u.protocol === 'file:') return url;
  if (u.password) u.password = '***';
  if (u.pathname !== '/' && u.pathname !== '') u.pathname = '/***';
  for (const name of new Set(u.searchParams.keys())) u.searchParams.set(name, '***');
  u.hash = '';
  return asGiven(url, u);
}

/** `new URL('http://h')` shows `http://h/`: no slash is added where the URL given had no path. */
function asGiven(given: string, u: URL): string {
  const shown = u.toString();
  return given.endsWith('/') || u.pathname !== '/' || u.search !== '' ? shown : shown.replace(/\/$/, '');
}

/**
 * The URL without its user part, and that user part as the `Authorization: Basic` header fetch
 * would not send from it (it refuses a URL with credentials).
 */
export function withoutCredentials(url: string): { url: string; headers: Record<string, string> } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, headers: {} };
  }
  if (!u.username && !u.password) return { url, headers: {} };
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  return {
    url: asGiven(url, u),
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
  };
}
