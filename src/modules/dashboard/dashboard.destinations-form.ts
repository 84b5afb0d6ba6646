import Type, { type Static } from 'typebox';
import { Format } from 'typebox/format';
import type { RouteInput } from '../destinations/alerts/alerts.usecases.ts';
import type { Frequency } from '../destinations/alerts/alerts.tables.ts';
import type { DestinationInput } from '../destinations/destinations.usecases.ts';
import type { DestinationKind } from '../destinations/destinations.tables.ts';
import { isAppError, type AppError } from '../../shared/errors.ts';
import { formProblem } from './dashboard.reply.ts';
import type { AlertForm } from './views/monitor-alerts.ts';
import type { DestinationForm } from './views/destination-parts.ts';

/*
 * The two forms of alerts in the usecases' terms: adding a destination, and sending a monitor's matches
 * to one. The API's schema checks a body's shape before its usecases run; a form skips that schema, so
 * the same limits are checked here, each refused in words beside the field it is about.
 */

// Loose enough that a long or odd value reaches the checks below and is refused in words, not as a bare 400.
export const destinationBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  kind: Type.String({ maxLength: 20 }),
  name: Type.String({ maxLength: 1000 }),
  url: Type.Optional(Type.String({ maxLength: 4000 })),
  address: Type.Optional(Type.String({ maxLength: 1000 })),
});
export const alertBody = Type.Object({
  csrf: Type.Optional(Type.String()),
  destination_id: Type.String({ maxLength: 64 }),
  frequency: Type.String({ maxLength: 20 }),
  at: Type.Optional(Type.String({ maxLength: 20 })),
  time_zone: Type.Optional(Type.String({ maxLength: 200 })),
});

/** A refusal as a form shows it: the answer's status, one sentence, and the field it is about (beside which it is repeated). */
export interface Refused {
  status: number;
  message: string;
  field: string | null;
}
type Checked<Input> = { input: Input } | { refusal: Refused };

const KINDS: readonly DestinationKind[] = ['slack', 'discord', 'email', 'telegram'];
const FREQUENCIES: readonly Frequency[] = ['instant', 'hourly', 'daily'];
/** The API's limits (destinations.schemas.ts, alerts.schemas.ts), counted as the schema counts them. */
const NAME_MAX = 100;
const URL_MAX = 500;
const ADDRESS_MAX = 254;
const TIME_OF_DAY = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const ZONE_MAX = 64;
const SERVICE = { slack: 'Slack', discord: 'Discord' } as const;

export const destinationFormOf = (body: Static<typeof destinationBody>): DestinationForm => ({
  kind: body.kind,
  name: body.name,
  url: body.url?.trim() ?? '',
  address: body.address?.trim() ?? '',
});

const refuse = (field: string, message: string) => ({ refusal: { status: 422, field, message } });

/** A webhook URL's length, which the API's schema bounds; what the URL must look like is the usecases' to say. */
export const webhookUrlTooLong = (kind: 'slack' | 'discord', url: string): Refused | null =>
  url.length > URL_MAX ? refuse('url', `The webhook URL can have at most ${URL_MAX} characters; copy it again from ${SERVICE[kind]}.`).refusal : null;

/** Only the field of the chosen kind is passed on: the form shows all of them, and the others may hold leftovers. */
export function destinationInputOf(form: DestinationForm): Checked<DestinationInput> {
  const kind = KINDS.find((k) => k === form.kind);
  if (!kind) return refuse('kind', 'Choose where the alerts go: Slack, Discord, email or Telegram.');
  const name = form.name.trim();
  if (name === '') return refuse('name', 'Give the destination a name to tell it by, for example the channel: #leads.');
  if (name.length > NAME_MAX) return refuse('name', `The name is ${name.length} characters long; it can have at most ${NAME_MAX}.`);
  if (kind === 'slack' || kind === 'discord') {
    if (form.url === '') return refuse('url', `Paste the webhook URL ${SERVICE[kind]} gave you into Webhook URL.`);
    const tooLong = webhookUrlTooLong(kind, form.url);
    return tooLong ? { refusal: tooLong } : { input: { kind, name, url: form.url } };
  }
  if (kind === 'email') {
    if (form.address === '') return refuse('address', 'Type the email address the alerts should go to.');
    if (form.address.length > ADDRESS_MAX || !Format.IsEmail(form.address)) return refuse('address', `“${form.address}” is not an email address.`);
    return { input: { kind, name, address: form.address } };
  }
  return { input: { kind, name } };
}

/**
 * The usecases' refusal beside the form: a wrong webhook URL in the form's words (the API names its field
 * `url`), a kind this server cannot send (a 503 for the API, which choosing another kind fixes), and any
 * other refusal a person can act on in its own words. Anything else is thrown to the error page.
 */
export function destinationRefusal(error: unknown): Refused {
  if (isAppError(error) && error.code === 'destinations.invalid_url') {
    const [issue] = error.extra.errors as { message: string }[];
    return { status: error.status, message: `The webhook URL ${issue!.message.replace(/^url /, '')}.`, field: 'url' };
  }
  if (isAppError(error) && error.code === 'destinations.channel_not_configured') return { status: error.status, message: error.message, field: 'kind' };
  const problem = formProblem(error);
  return { status: problem.status, message: problem.message, field: null };
}

/** The usecases' refusal of a route: an unknown time zone in the form's words (the API names its field `time_zone`). */
export function alertRefusal(problem: AppError): Refused {
  if (problem.code === 'destinations.invalid_time_zone') {
    return { status: problem.status, message: 'That time zone is not one this server knows; use a name such as Europe/Berlin or America/New_York.', field: 'time_zone' };
  }
  return { status: problem.status, message: problem.message, field: null };
}

export const alertFormOf = (body: Static<typeof alertBody>): AlertForm => ({
  destinationId: body.destination_id,
  frequency: body.frequency,
  at: body.at?.trim() ?? '',
  timeZone: body.time_zone?.trim() ?? '',
});

/** A daily digest's time and zone are sent only for a daily digest: the usecases refuse them on the others. */
export function routeInputOf(form: AlertForm): Checked<RouteInput> {
  const frequency = FREQUENCIES.find((f) => f === form.frequency);
  if (!frequency) return refuse('frequency', 'Choose how often: each match at once, an hourly digest or a daily digest.');
  if (frequency !== 'daily') return { input: { frequency } };
  if (!TIME_OF_DAY.test(form.at)) return refuse('at', 'Type the time of the daily digest as hours and minutes, for example 09:00.');
  if (form.timeZone.length > ZONE_MAX) return refuse('time_zone', `“${form.timeZone}” is not a time zone; use a name such as Europe/Berlin.`);
  return { input: { frequency, at: form.at, time_zone: form.timeZone === '' ? 'UTC' : form.timeZone } };
}
