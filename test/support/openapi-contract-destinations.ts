/**
 * The contract test's scenarios of the destinations (docs/api/destinations.md), made with the helpers of
 * openapi-contract-scenarios.ts. The main app takes Slack and Discord webhooks on 127.0.0.1:9 (discard),
 * so nothing leaves the machine; the limits app has no SECRET_KEY.
 */
import { sha256 } from '../../src/shared/crypto/sha256.ts';
import { CONTRACT_CHAT_BASE } from './openapi-contract-apps.ts';
import { NO_ID, get, post, type World } from './openapi-contract-calls.ts';
import { bodyRefusals, byId, ok, scenario, type Scenario } from './openapi-contract-scenarios.ts';

export const destinationBody = (w: World) => ({ kind: 'slack', name: `#contract-${w.serial()}`, url: `${CONTRACT_CHAT_BASE}/services/T0001/B0001/contract${w.serial()}` });

const created = async (w: World, status = 'active') => {
  const answer = await w.send('main', post('/api/v1/destinations', destinationBody(w)));
  const { id } = JSON.parse(answer.body) as { id: string };
  if (status === 'off') await w.main.services.db.updateTable('destinations').set({ status: 'off', off_reason: 'Slack answered 404 no_service' }).where('id', '=', id).execute();
  return id;
};

export const DESTINATION_SCENARIOS: Scenario[] = [
  ok('createDestination', 201),
  ...bodyRefusals('createDestination', 'POST', () => '/api/v1/destinations', { kind: 'teams', name: 'x', url: 'https://x.test/' }),
  scenario('createDestination', 422, 'a URL that is not a webhook of the service', {
    code: 'destinations.invalid_url',
    call: () => post('/api/v1/destinations', { kind: 'slack', name: 'x', url: 'https://example.com/services/T1/B1/x' }),
  }),
  ok('updateDestination'),
  ...bodyRefusals('updateDestination', 'PATCH', (w) => `/api/v1/destinations/${w.ids.destination}`, { name: '' }),
  scenario('updateDestination', 404, 'a destination that does not exist', { call: () => ({ method: 'PATCH', target: `/api/v1/destinations/dst_${NO_ID}`, body: { name: 'x' } }) }),
  scenario('updateDestination', 422, 'a new URL that is not a webhook of the service', {
    code: 'destinations.invalid_url',
    call: (w) => ({ method: 'PATCH', target: `/api/v1/destinations/${w.ids.destination}`, body: { url: 'https://example.com/services/T1/B1/x' } }),
  }),
  scenario('updateDestination', 422, 'an id longer than the schema allows', { call: () => ({ method: 'PATCH', target: `/api/v1/destinations/${'x'.repeat(70)}`, body: { name: 'x' } }) }),
  scenario('createDestination', 422, 'an email destination without its address', {
    code: 'destinations.invalid_target',
    call: () => post('/api/v1/destinations', { kind: 'email', name: 'x' }),
  }),
  scenario('testDestination', 409, 'an address not yet confirmed', {
    run: async (w) => {
      const id = await created(w);
      await w.main.services.db.updateTable('destinations').set({ status: 'unconfirmed' }).where('id', '=', id).execute();
      return w.send('main', post(`/api/v1/destinations/${id}/test`, {}));
    },
  }),
  ok('listDestinations'),
  ok('getDestination'),
  ...byId('getDestination', '/api/v1/destinations', 'dst'),
  scenario('deleteDestination', 204, 'deleting a destination', { run: async (w) => w.send('main', { method: 'DELETE', target: `/api/v1/destinations/${await created(w)}` }) }),
  scenario('deleteDestination', 404, 'a destination that does not exist', { call: () => ({ method: 'DELETE', target: `/api/v1/destinations/dst_${NO_ID}` }) }),
  scenario('deleteDestination', 422, 'an id longer than the schema allows', { call: () => ({ method: 'DELETE', target: `/api/v1/destinations/${'x'.repeat(70)}` }) }),
  ok('testDestination', 202),
  ...bodyRefusals('testDestination', 'POST', (w) => `/api/v1/destinations/${w.ids.destination}/test`, { text: '' }),
  scenario('testDestination', 404, 'a destination that does not exist', { call: () => post(`/api/v1/destinations/dst_${NO_ID}/test`, {}) }),
  scenario('testDestination', 409, 'a destination switched off', { run: async (w) => w.send('main', post(`/api/v1/destinations/${await created(w, 'off')}/test`, {})) }),
  scenario('testDestination', 422, 'an id longer than the schema allows', { call: () => post(`/api/v1/destinations/${'x'.repeat(70)}/test`, {}) }),
  ok('listDestinationDeliveries'),
  scenario('listDestinationDeliveries', 404, 'a destination that does not exist', { call: () => get(`/api/v1/destinations/dst_${NO_ID}/deliveries`) }),
  scenario('listDestinationDeliveries', 422, 'an id longer than the schema allows', { call: () => get(`/api/v1/destinations/${'x'.repeat(70)}/deliveries`) }),
  ok('listMonitorRoutes'),
  scenario('listMonitorRoutes', 404, 'a monitor that does not exist', { call: () => get(`/api/v1/monitors/mon_${NO_ID}/destinations`) }),
  scenario('listMonitorRoutes', 422, 'an id longer than the schema allows', { call: () => get(`/api/v1/monitors/${'x'.repeat(70)}/destinations`) }),
  ok('routeMonitor'),
  ...bodyRefusals('routeMonitor', 'PUT', (w) => `/api/v1/monitors/${w.ids.monitor}/destinations/${w.ids.destination}`, { frequency: 'weekly' }),
  scenario('routeMonitor', 404, 'a destination that does not exist', { call: (w) => put(`/api/v1/monitors/${w.ids.monitor}/destinations/dst_${NO_ID}`, { frequency: 'instant' }) }),
  scenario('routeMonitor', 422, 'a time of day for a route that is not daily', {
    code: 'destinations.invalid_schedule',
    call: (w) => put(`/api/v1/monitors/${w.ids.monitor}/destinations/${w.ids.destination}`, { frequency: 'hourly', at: '09:00' }),
  }),
  scenario('routeMonitor', 422, 'a time zone the server does not know', {
    code: 'destinations.invalid_time_zone',
    call: (w) => put(`/api/v1/monitors/${w.ids.monitor}/destinations/${w.ids.destination}`, { frequency: 'daily', time_zone: 'Mars/Olympus_Mons' }),
  }),
  scenario('unrouteMonitor', 204, 'stopping a route', {
    run: async (w) => {
      const destination = await created(w);
      await w.send('main', put(`/api/v1/monitors/${w.ids.monitor}/destinations/${destination}`, { frequency: 'hourly' }));
      return w.send('main', { method: 'DELETE', target: `/api/v1/monitors/${w.ids.monitor}/destinations/${destination}` });
    },
  }),
  scenario('unrouteMonitor', 404, 'a route that does not exist', { call: (w) => ({ method: 'DELETE', target: `/api/v1/monitors/${w.ids.monitor}/destinations/dst_${NO_ID}` }) }),
  scenario('unrouteMonitor', 422, 'an id longer than the schema allows', { call: (w) => ({ method: 'DELETE', target: `/api/v1/monitors/${w.ids.monitor}/destinations/${'x'.repeat(70)}` }) }),
];

/** A PUT with a JSON body. */
const put = (target: string, body: unknown) => ({ method: 'PUT', target, body });

/** On `limits`, without SECRET_KEY: destinations cannot keep their URLs sealed, so there are none. */
export const DESTINATIONS_NOT_CONFIGURED: Scenario[] = [
  scenario('testDestination', 503, 'a server without SECRET_KEY', {
    run: async (w) => w.send('limits', { ...post(`/api/v1/destinations/dst_${NO_ID}/test`, {}), token: await w.freshLimitsKey() }),
  }),
  scenario('createDestination', 503, 'a server without SECRET_KEY', {
    // A real Slack address: the limits app takes only the service's own hosts, and the body is checked first.
    run: async (w) => w.send('limits', { ...post('/api/v1/destinations', { kind: 'slack', name: 'x', url: 'https://hooks.slack.com/services/T0001/B0001/limits' }), token: await w.freshLimitsKey() }),
  }),
  scenario('updateDestination', 503, 'a new URL on a server that lost its SECRET_KEY', {
    run: async (w) => {
      const token = await w.freshLimitsKey();
      const { db } = w.limits.services;
      const key = await db.selectFrom('api_keys').select('account_id').where('fingerprint', '=', sha256(token)).executeTakeFirstOrThrow();
      const id = `dst_${NO_ID}`;
      const at = new Date().toISOString();
      await db
        .insertInto('destinations')
        .values({ id, account_id: key.account_id, kind: 'slack', name: 'kept', url_sealed: 'x', url_hint: '…/x', status: 'active', off_reason: null, next_send_at: at, draining_until: null, created_at: at, confirm_expires_at: null })
        .execute();
      return w.send('limits', { method: 'PATCH', target: `/api/v1/destinations/${id}`, body: { url: 'https://hooks.slack.com/services/T0001/B0001/again' }, token });
    },
  }),
];
