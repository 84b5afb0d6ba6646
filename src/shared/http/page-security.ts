/** Headers every HTML page of ours sends (the dashboard, the API reference): no framing, no referrer, no sniffing. */
export const PAGE_SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * The pages' Content-Security-Policy: no inline script or style, no framing, and forms that post only
 * to this origin. `formTargets` are the other origins a page's form may lead to: browsers apply
 * form-action to the redirects after a post too, so a form answered by a redirect to another site
 * (Reddit's authorization page) needs that site listed, on that page only. `imageSources` are the other
 * sources a page draws images from (the API reference's stylesheet draws its icons as data: URLs).
 */
export function contentSecurityPolicy(options: { formTargets?: string[]; imageSources?: string[] } = {}): string {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(' ');
  const images = ["'self'", ...(options.imageSources ?? [])].join(' ');
  return `default-src 'self'; script-src 'self'; style-src 'self'; img-src ${images}; frame-ancestors 'none'; form-action ${formAction}; base-uri 'none'; object-src 'none'`;
}
