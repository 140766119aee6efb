/**
 * Domain policy: the block list first, then the allow list. A list entry matches its registered
 * domain and every subdomain of it. `www.` is stripped from both the result's host and the list
 * entries (an entry written `www.reuters.com` matches `uk.reuters.com`), and both are lower-cased,
 * so how an entry is written cannot silently disable it. Pure.
 */

/** A list entry or host in canonical form: lower case, no scheme, path, port, trailing dot or leading `www.`. */
export function normaliseDomain(entry: string): string {
  let d = entry.trim().toLowerCase();
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  d = d.replace(/[/?#].*$/, "");
  d = d.replace(/:\d+$/, "");
  d = d.replace(/\.$/, "");
  while (d.startsWith("www.")) d = d.slice(4);
  return d;
}

/** The normalised host of an http(s) URL, or null when the URL has none. */
export function hostOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  const host = normaliseDomain(u.hostname);
  return host.length > 0 ? host : null;
}

/** True when `host` is `domain` or one of its subdomains (both normalised first). */
export function domainMatches(host: string, domain: string): boolean {
  const h = normaliseDomain(host);
  const d = normaliseDomain(domain);
  if (d.length === 0) return false;
  return h === d || h.endsWith(`.${d}`);
}

export interface DomainPolicy {
  block: readonly string[];
  allow: readonly string[];
}

/** Whether a host passes the policy: not blocked, and allowed when an allow list is set. */
export function policyAllows(host: string, policy: DomainPolicy): boolean {
  if (policy.block.some((d) => domainMatches(host, d))) return false;
  if (policy.allow.length > 0 && !policy.allow.some((d) => domainMatches(host, d))) return false;
  return true;
}
