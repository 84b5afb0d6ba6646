/**
 * The HTTP side of the fake Stripe (see fake-stripe.ts): authentication, the request log,
 * idempotency, the planned faults, the /v1 routes and the hosted checkout page.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FakeAccount } from './fake-stripe-account.ts';
import type { FakeCheckout, SessionPlan } from './fake-stripe-checkout.ts';
import type { CheckoutSession } from './fake-stripe-objects.ts';
import {
  idempotencyMismatch, invalidRequest, newId, noSuch, parseForm, planned, str, unauthorized, unrecognizedUrl,
  type Answer, type Params,
} from './fake-stripe-wire.ts';

export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. /v1/checkout/sessions. */
  path: string;
  /** The parsed query string (GET parameters are sent there, in the same bracket notation). */
  query: Params;
  headers: Record<string, string | undefined>;
  /** The body as sent, e.g. `line_items[0][price_data][unit_amount]=500&…`. */
  rawBody: string;
  /** The body parsed: nested objects and arrays, every leaf a string as on the wire. */
  body: Params;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  /** The status answered; null while pending and when the answer was lost. */
  status: number | null;
  /** True when the answer was an idempotent replay of a stored one. */
  replayed: boolean;
}

/** The faults planned by `failNext` and `loseAnswers`, consumed in order. */
export interface Faults {
  failures: number[];
  lost: { predicate: (request: RecordedRequest) => boolean }[];
}

interface Stored {
  method: string;
  path: string;
  params: string;
  status: number;
  body: unknown;
}

/** Stable JSON of the parameters, so a retry that sends the same values in another order still matches. */
function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Params)[k])}`).join(',')}}`;
}

const RETRIEVABLE: Record<string, string> = {
  customers: 'customer', charges: 'charge', payment_intents: 'payment_intent', payment_methods: 'payment_method',
  refunds: 'refund', disputes: 'dispute', 'checkout/sessions': 'checkout.session',
};

export function createFakeStripeServer(options: {
  account: FakeAccount;
  checkout: FakeCheckout;
  secretKey: () => string;
  requests: RecordedRequest[];
  faults: Faults;
  defaultVersion: string;
}): Server {
  const { account, checkout, requests, faults } = options;
  const stored = new Map<string, Stored>();

  const route = (method: string, path: string, params: Params, cause: { requestId: string; idempotencyKey: string | null }): Answer => {
    const post = method === 'POST';
    if (post && path === '/v1/customers') return account.createCustomer(params);
    if (post && path === '/v1/checkout/sessions') return checkout.createSession(params);
    if (post && path === '/v1/payment_intents') return account.createPaymentIntent(params, cause);
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (post && expire) return checkout.expireSession(expire[1], cause);
    if (post && path === '/v1/refunds') {
      const paymentIntent = str(params, 'payment_intent');
      const charge = str(params, 'charge');
      if (!paymentIntent && !charge) {
        return invalidRequest('One of the following params should be provided for this request: charge or payment_intent.');
      }
      const amountText = str(params, 'amount');
      const amount = amountText === undefined ? undefined : /^\d+$/.test(amountText) ? Number(amountText) : NaN;
      if (Number.isNaN(amount)) return invalidRequest(`Invalid integer: ${amountText}`, 'amount');
      return account.refund({ paymentIntent, charge }, amount, cause);
    }
    if (method === 'GET' && path === '/v1/events') return account.listEvents(params);
    const event = /^\/v1\/events\/([^/]+)$/.exec(path);
    if (method === 'GET' && event) {
      const found = account.events.find((e) => e.id === event[1]);
      return found ? { status: 200, body: found, store: false } : noSuch('event', event[1], 'id');
    }
    const one = /^\/v1\/(customers|charges|payment_intents|payment_methods|refunds|disputes|checkout\/sessions)\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const found = one[1] === 'checkout/sessions' ? checkout.session(one[2]) : account.find(one[2], RETRIEVABLE[one[1]]);
      return found ? { status: 200, body: found, store: false } : noSuch(RETRIEVABLE[one[1]], one[2], 'id');
    }
    return unrecognizedUrl(method, path);
  };

  const authorized = (header: string | undefined): Answer | undefined => {
    const basic = header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString().split(':')[0] : undefined;
    const key = header?.startsWith('Bearer ') ? header.slice(7) : basic;
    return key === options.secretKey() ? undefined : unauthorized(key || undefined);
  };

  const api = (req: IncomingMessage, res: ServerResponse, path: string, query: Params, rawBody: string) => {
    const method = req.method ?? 'GET';
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const record: RecordedRequest = {
      method, path, query, headers: Object.fromEntries(Object.keys(req.headers).map((k) => [k, header(k)])),
      rawBody, body: parseForm(rawBody), idempotencyKey: header('idempotency-key') ?? null,
      stripeVersion: header('stripe-version') ?? null, status: null, replayed: false,
    };
    requests.push(record);
    const requestId = newId('req');
    const send = (answer: Answer, replayed = false) => {
      record.status = answer.status;
      record.replayed = replayed;
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': requestId,
        'stripe-version': record.stripeVersion ?? options.defaultVersion,
        ...(record.idempotencyKey && method === 'POST' ? { 'idempotency-key': record.idempotencyKey } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(answer.body));
    };
    const refused = authorized(header('authorization'));
    if (refused) return send(refused);
    // failNext: the request fails before Stripe does anything, so nothing is stored and a retry runs it.
    const failure = faults.failures.shift();
    if (failure !== undefined) return send(planned(failure));
    // Idempotency-Key has no effect on GET (docs.stripe.com/api/idempotent_requests).
    const key = method === 'POST' ? record.idempotencyKey : null;
    const params = canonical(record.body);
    const previous = key ? stored.get(key) : undefined;
    let answer: Answer;
    let replayed = false;
    if (previous && (previous.method !== method || previous.path !== path || previous.params !== params)) {
      answer = idempotencyMismatch(key!);
    } else if (previous) {
      answer = { status: previous.status, body: previous.body, store: false };
      replayed = true;
    } else {
      answer = route(method, path, method === 'POST' ? record.body : query, { requestId, idempotencyKey: key });
      // Stripe saves the status and body once execution began, errors such as a 402 included;
      // a request that failed validation is not saved and may be retried (docs.stripe.com/idempotency).
      if (key && answer.store) stored.set(key, { method, path, params, status: answer.status, body: structuredClone(answer.body) });
    }
    const lose = faults.lost.findIndex((l) => l.predicate(record));
    if (lose >= 0) {
      // A lost answer: the work is done (and stored under its key) but the client never hears back.
      faults.lost.splice(lose, 1);
      record.replayed = replayed;
      res.socket?.destroy();
      return;
    }
    send(answer, replayed);
  };

  const hosted = (req: IncomingMessage, res: ServerResponse, id: string, rawBody: string) => {
    const html = (status: number, session: CheckoutSession | undefined, problem?: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(checkoutPage(session, checkout.plan(session?.id ?? '')?.items ?? [], problem));
    };
    if (req.method === 'POST') {
      const result = checkout.pay(id, str(parseForm(rawBody), 'card') ?? 'pm_card_visa');
      if ('problem' in result) return html(402, checkout.session(id), result.problem);
      res.writeHead(303, { location: result.session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id) });
      return res.end();
    }
    const session = checkout.session(id);
    html(session ? 200 : 404, session, session ? undefined : 'No such Checkout Session.');
  };

  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake-stripe');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
      if (page && (req.method === 'GET' || req.method === 'POST')) return hosted(req, res, page[1], rawBody);
      api(req, res, url.pathname, parseForm(url.search.slice(1)), rawBody);
    });
  });
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;

const CARDS = [
  ['pm_card_visa', 'Visa •••• 4242 (succeeds)'],
  ['pm_card_authenticationRequired', 'Visa •••• 3184 (authenticates here, then always requires authentication)'],
  ['pm_card_chargeDeclined', 'Visa •••• 0002 (declined)'],
];

/** A bare page a test (or a Playwright browser) can read and submit: amount, a card choice, "Pay". */
function checkoutPage(session: CheckoutSession | undefined, items: SessionPlan['items'], problem?: string): string {
  const parts = ['<h1>Fake Stripe Checkout</h1>'];
  if (problem) parts.push(`<p role="alert">${escape(problem)}</p>`);
  if (session) {
    const lines = items.map((i) => `<li>${escape(i.name)} × ${i.quantity}: ${money(i.unitAmount * i.quantity, session.currency)}</li>`);
    parts.push(`<ul>${lines.join('')}</ul>`, `<p id="total">Total: <strong>${money(session.amount_total, session.currency)}</strong></p>`);
  }
  if (session?.status === 'open') {
    const options = CARDS.map(([value, label], i) => `<option value="${value}"${i === 0 ? ' selected' : ''}>${label}</option>`);
    parts.push(
      `<form method="post" action="/c/pay/${escape(session.id)}">`,
      '<label for="card">Card</label>',
      `<select id="card" name="card">${options.join('')}</select>`,
      '<button type="submit">Pay</button>',
      '</form>',
    );
    if (session.cancel_url) parts.push(`<p><a href="${escape(session.cancel_url)}">Cancel</a></p>`);
  } else if (session) {
    parts.push(`<p id="status">This Checkout Session is ${session.status}.</p>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
<body><main>
${parts.join('\n')}
</main></body></html>
`;
}
