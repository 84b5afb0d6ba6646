/**
 * The dashboard's Content-Security-Policy: no inline script or style, no framing, and forms that post
 * only to the dashboard. `formTargets` are the other origins a page's form may lead to: browsers apply
 * form-action to the redirects after a post too, so a form answered by a redirect to another site
 * (Reddit's authorization page) needs that site listed, on that page only.
 */
export function contentSecurityPolicy(formTargets: string[] = []): string {
  const formAction = ["'self'", ...formTargets].join(' ');
  return `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; form-action ${formAction}; base-uri 'none'; object-src 'none'`;
}
