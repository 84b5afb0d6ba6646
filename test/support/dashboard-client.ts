/** A cookie-keeping HTTP client for the dashboard's forms, without a browser. */
export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
  setCookies: string[];
}

export class DashboardClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** `extra` headers are what a browser would add, e.g. the Sec-Fetch-Site of a form posted from elsewhere. */
  async request(method: string, path: string, form?: Record<string, string>, extra: Record<string, string> = {}): Promise<PageResponse> {
    const headers: Record<string, string> = { ...extra };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, body: await response.text(), location: response.headers.get('location'), setCookies };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, form: Record<string, string>, headers?: Record<string, string>) => this.request('POST', path, form, headers);

  /** Fetches a page with a form and posts it with the page's own CSRF token. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<PageResponse> {
    const page = await this.get(formPage);
    return this.post(action, { csrf: csrfIn(page.body), ...fields });
  }

  /**
   * Signs up on a server that sends no mail, which signs the new account in at once (a 303 to the
   * Keys page). A refused sign-up (422, 409, 403) is returned as it is.
   */
  signUp = (email: string, password = 'correct horse battery'): Promise<PageResponse> =>
    this.submit('/dashboard/signup', '/dashboard/signup', { email, password });

  logIn = (email: string, password: string) => this.submit('/dashboard/login', '/dashboard/login', { email, password });
}

export function csrfIn(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

let counter = 0;
export const uniqueEmail = (label = 'dash') => `${label}${++counter}-${Date.now()}@example.com`;
