import type { Frequency } from '../../destinations/alerts/alerts.tables.ts';
import type { MonitorHealth } from '../../monitors/monitors.usecases.ts';
import { html, type Html } from './html.ts';
import { badge, csrfField, errorBox, type Viewer } from './layout.ts';
import { KIND_LABELS, statusBadge, type DestinationView } from './destination-parts.ts';
import type { FieldErrors } from './monitor-parts.ts';

/** The route form's fields as typed: refilled as they were after a refusal. */
export interface AlertForm {
  destinationId: string;
  frequency: string;
  at: string;
  timeZone: string;
}

/** One destination the monitor's matches go to, and how often. */
export interface AlertRoute {
  destination: DestinationView;
  frequency: Frequency;
  at: string | null;
  time_zone: string | null;
}

export interface MonitorAlerts {
  routes: AlertRoute[];
  /** Every destination of the account, for the form's choice. */
  destinations: DestinationView[];
  /** A refused route, shown above the form, which `form` refills, and beside the field it is about. */
  error?: string;
  fieldErrors?: FieldErrors;
  form?: AlertForm;
}

const FREQUENCIES: [Frequency, string][] = [
  ['instant', 'Each match, as it is found'],
  ['hourly', 'An hourly digest'],
  ['daily', 'A daily digest'],
];

/** How often, in words. */
function howOften(route: AlertRoute): Html {
  if (route.frequency === 'instant') return html`each match, as it is found`;
  if (route.frequency === 'hourly') return html`an hourly digest, on the hour`;
  return html`a daily digest at ${route.at} <span class="muted">(<bdi>${route.time_zone}</bdi> time)</span>`;
}

/** A destination that sends nothing, and why: matches found meanwhile are passed over, not kept for later. */
function notSending(destination: DestinationView): Html | null {
  if (destination.status === 'off') return html`<p class="dst-reason">Switched off, so nothing is sent: <bdi>${destination.off_reason ?? 'no reason given'}</bdi></p>`;
  if (destination.status === 'unconfirmed') {
    return html`<p class="mon-reason">${destination.kind === 'email' ? 'Nothing is sent until the address is confirmed' : 'Nothing is sent until the chat is linked'}; matches found meanwhile are skipped.</p>`;
  }
  return null;
}

/**
 * The Health section's lines for routed destinations that get nothing now (the monitor's health lists
 * them): the issue wants a switched-off destination shown in the monitor's health, since its alerts stop.
 */
export function silentDestinationLines(silent: MonitorHealth['destinations']): Html {
  return html`${silent.map(
    (d) => html`<p class="mon-health-status">${badge(d.status === 'off' ? 'off' : 'waiting')} Alerts to <a href="/dashboard/destinations/${d.id}"><bdi>${d.name}</bdi></a>
    ${d.status === 'off' ? html`are not sent: it was switched off (<bdi>${d.reason ?? 'no reason given'}</bdi>).` : html`are not sent until it is ${d.kind === 'email' ? 'confirmed' : 'linked'}.`}</p>`,
  )}`;
}

function routesList(monitorId: string, viewer: Viewer, routes: AlertRoute[]): Html {
  if (routes.length === 0) return html`<p class="muted">No alerts yet: new matches are listed below and in the Inbox only.</p>`;
  return html`<ul class="dst-routes">${routes.map(
    (route) => html`<li>
    <div class="dst-route-what">
      <p><a href="/dashboard/destinations/${route.destination.id}"><strong><bdi>${route.destination.name}</bdi></strong></a>
      <span class="muted">${KIND_LABELS[route.destination.kind]}</span> ${statusBadge(route.destination)}</p>
      <p>${howOften(route)}</p>
      ${notSending(route.destination)}
    </div>
    <form method="post" action="/dashboard/monitors/${monitorId}/alerts/${route.destination.id}/stop" class="dst-stop">
      ${csrfField(viewer.csrfToken)}<button type="submit" class="secondary">Stop sending</button></form>
  </li>`,
  )}</ul>`;
}

function routeForm(monitorId: string, viewer: Viewer, alerts: MonitorAlerts): Html {
  if (alerts.destinations.length === 0) {
    return html`<p>To get alerts in Slack, Discord, Telegram or by email, <a href="/dashboard/destinations">add a destination</a> first.</p>`;
  }
  const form = alerts.form ?? { destinationId: '', frequency: 'instant', at: '09:00', timeZone: 'UTC' };
  const errors = alerts.fieldErrors ?? {};
  const problem = (name: string) => (errors[name] ? html`<span class="field-error">${errors[name]}</span>` : null);
  const bad = (name: string) => (errors[name] ? html` aria-invalid="true"` : null);
  const selected = (on: boolean) => (on ? html` selected` : null);
  const note = (d: DestinationView) => (d.status === 'off' ? ', switched off' : d.status === 'unconfirmed' ? ', not confirmed yet' : '');
  return html`${errorBox(alerts.error)}
  <form method="post" action="/dashboard/monitors/${monitorId}/alerts" class="dst-route-form">
    ${csrfField(viewer.csrfToken)}
    <label class="dst-route-to">Send to ${problem('destination_id')}<select name="destination_id">${alerts.destinations.map(
      (d) => html`<option value="${d.id}"${selected(form.destinationId === d.id)}>${d.name} (${KIND_LABELS[d.kind]}${note(d)})</option>`,
    )}</select></label>
    <label>How often ${problem('frequency')}<select name="frequency" data-toggles>${FREQUENCIES.map(
      ([value, label]) => html`<option value="${value}"${selected(form.frequency === value)}>${label}</option>`,
    )}</select></label>
    <label class="dst-route-at" data-when="daily">At <span class="muted">(daily digest)</span> ${problem('at')}
      <input type="time" name="at" value="${form.at}"${bad('at')}></label>
    <label data-when="daily">Time zone <span class="muted">(daily digest)</span> ${problem('time_zone')}
      <input type="text" name="time_zone" value="${form.timeZone}" maxlength="64" placeholder="Europe/Berlin"${
        alerts.form ? null : html` data-browser-zone`
      }${bad('time_zone')}></label>
    <button type="submit">Send alerts there</button>
  </form>
  <p class="muted">Matches found from now on are sent; earlier ones are not. Choosing a destination already listed changes how often it gets them.</p>`;
}

export function alertsSection(monitorId: string, viewer: Viewer, alerts: MonitorAlerts): Html {
  return html`<section class="card" aria-labelledby="alerts">
  <h2 id="alerts">Alerts</h2>
  <p class="muted">Where this monitor's new matches are sent: <a href="/dashboard/destinations">destinations</a> in Slack, Discord, Telegram
  or by email. A digest with nothing new is not sent. Free.</p>
  ${routesList(monitorId, viewer, alerts.routes)}
  ${routeForm(monitorId, viewer, alerts)}
</section>`;
}
