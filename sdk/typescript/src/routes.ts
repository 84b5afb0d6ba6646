import type { operations } from './generated/api.js';

/**
 * Every operation of the API a client calls: the document's operationIds, less the HEAD twins of the
 * GETs (`headScrape`, …: the same answer without a body) and the webhook events the server sends.
 */
export type OperationId = Exclude<keyof operations, `head${string}` | `${string}Webhook`>;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Where each operation lives. `satisfies` makes the compiler refuse this table when the document
 * gains an operation it lacks; the tests check each entry against the live document's method and path.
 */
export const ROUTES = {
  getBalance: ['GET', '/api/v1/balance'],
  listUsage: ['GET', '/api/v1/usage'],
  getDailyUsage: ['GET', '/api/v1/usage/daily'],
  listCreditPacks: ['GET', '/api/v1/credits/packs'],
  createCheckout: ['POST', '/api/v1/credits/checkout'],
  getPayment: ['GET', '/api/v1/credits/payments/{id}'],
  createScrape: ['POST', '/api/v1/scrape'],
  getScrape: ['GET', '/api/v1/scrapes/{id}'],
  listScrapes: ['GET', '/api/v1/scrapes'],
  createGeneration: ['POST', '/api/v1/generate'],
  getGeneration: ['GET', '/api/v1/generations/{id}'],
  updateGeneration: ['PATCH', '/api/v1/generations/{id}'],
  createPublication: ['POST', '/api/v1/publish'],
  getPublication: ['GET', '/api/v1/publications/{id}'],
  createMonitor: ['POST', '/api/v1/monitors'],
  listMonitors: ['GET', '/api/v1/monitors'],
  getMonitor: ['GET', '/api/v1/monitors/{id}'],
  updateMonitor: ['PATCH', '/api/v1/monitors/{id}'],
  deleteMonitor: ['DELETE', '/api/v1/monitors/{id}'],
  listMonitorMatches: ['GET', '/api/v1/monitors/{id}/matches'],
  listInbox: ['GET', '/api/v1/inbox'],
  getMatch: ['GET', '/api/v1/matches/{id}'],
  updateMatch: ['PATCH', '/api/v1/matches/{id}'],
  createDestination: ['POST', '/api/v1/destinations'],
  listDestinations: ['GET', '/api/v1/destinations'],
  getDestination: ['GET', '/api/v1/destinations/{id}'],
  updateDestination: ['PATCH', '/api/v1/destinations/{id}'],
  deleteDestination: ['DELETE', '/api/v1/destinations/{id}'],
  testDestination: ['POST', '/api/v1/destinations/{id}/test'],
  listDestinationDeliveries: ['GET', '/api/v1/destinations/{id}/deliveries'],
  listMonitorRoutes: ['GET', '/api/v1/monitors/{id}/destinations'],
  routeMonitor: ['PUT', '/api/v1/monitors/{id}/destinations/{destination_id}'],
  unrouteMonitor: ['DELETE', '/api/v1/monitors/{id}/destinations/{destination_id}'],
  getStreamCoverage: ['GET', '/api/v1/stream/coverage'],
} as const satisfies Record<OperationId, readonly [Method, string]>;

/**
 * The operations that take an `Idempotency-Key` (the document declares the header on them): the
 * billable POSTs, and creating a monitor, whose duplicate would store and charge every match twice.
 * Each call gets one key, sent on every attempt, so a retry is answered from the first outcome.
 */
export const KEYED: ReadonlySet<OperationId> = new Set<OperationId>(['createScrape', 'createGeneration', 'createPublication', 'createMonitor']);

/** Methods a repeat cannot turn into a second effect (RFC 9110 §9.2.2), so a lost answer may be asked again. */
export const IDEMPOTENT_METHODS: ReadonlySet<Method> = new Set<Method>(['GET', 'PUT', 'DELETE']);
