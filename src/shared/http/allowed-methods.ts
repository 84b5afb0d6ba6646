import { AppError } from '../errors.ts';

/** The order methods are listed in `Allow`. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A route pattern (`/api/v1/scrapes/:id`, `/assets/*`) as a regular expression over a request path. */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The methods each registered path serves, so that a request the router does not match can be told
 * apart: a known path asked with another method (405 with `Allow`, RFC 9110 §15.5.6) or no such path (404).
 */
export function createAllowedMethods() {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  return {
    add(url: string, method: string | string[]) {
      const route = routes.get(url) ?? { pattern: patternOf(url), methods: new Set<string>() };
      for (const one of [method].flat()) route.methods.add(one);
      routes.set(url, route);
    },
    /** The methods served at this path (a URL, query string ignored), in `Allow` order; empty when none. */
    of(url: string): string[] {
      const path = url.split('?')[0]!;
      const methods = new Set([...routes.values()].filter((route) => route.pattern.test(path)).flatMap((route) => [...route.methods]));
      return [...methods].sort((a, b) => rank(a) - rank(b));
    },
  };
}

const rank = (method: string) => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);

export const routingErrors = {
  methodNotAllowed: (method: string, allow: string[]) =>
    new AppError({
      code: 'request.method_not_allowed',
      status: 405,
      message: `This endpoint does not answer ${method}; it answers ${allow.join(', ')}.`,
      headers: { allow: allow.join(', ') },
    }),
  /** Node's HTTP parser refuses a method it does not know before any route is looked at (RFC 9110 §15.6.2). */
  methodNotImplemented: () =>
    new AppError({
      code: 'request.method_not_implemented',
      status: 501,
      message: 'The request method is not one this server implements; the API uses GET and POST.',
    }),
};
