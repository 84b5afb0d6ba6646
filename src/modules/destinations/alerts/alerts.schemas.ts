import Type, { type Static } from 'typebox';
import { fieldRule } from '../../../shared/http/field-rules.ts';
import { nullable } from '../../../shared/http/schemas.ts';

const frequency = Type.Union([Type.Literal('instant'), Type.Literal('hourly'), Type.Literal('daily')], {
  description: '"instant": each match as it is found; "hourly": a digest at every full hour (UTC); "daily": a digest every day at `at` in `time_zone`. A digest with nothing new sends nothing.',
});

export const routeBodySchema = Type.Object(
  {
    frequency,
    at: Type.Optional(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', 'x-rule': 'must be a time of day, HH:MM', description: 'A daily digest\'s time of day, 24-hour HH:MM; 09:00 when left out', examples: ['09:00'] })),
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "A daily digest's IANA time zone (Europe/Berlin); UTC when left out. Days are that zone's days: 09:00 stays 09:00 across daylight saving time.", examples: ['Europe/Berlin'] })),
  },
  {
    additionalProperties: false,
    title: 'MonitorRouteUpdate',
    // `at` and `time_zone` belong to a daily digest.
    ...fieldRule('destinations.invalid_schedule', { not: { required: ['frequency'], properties: { frequency: { enum: ['instant', 'hourly'] } }, anyOf: [{ required: ['at'], properties: { at: { type: 'string' } } }, { required: ['time_zone'], properties: { time_zone: { type: 'string' } } }] } }),
  },
);
export type RouteBody = Static<typeof routeBodySchema>;

export const routeParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }), destination_id: Type.String({ maxLength: 64 }) });

export const routeSchema = Type.Object(
  {
    monitor_id: Type.String(),
    destination_id: Type.String(),
    frequency,
    at: nullable(Type.String({ description: 'HH:MM of a daily digest; null for the others' })),
    time_zone: nullable(Type.String({ description: 'The time zone of a daily digest; null for the others' })),
    next_digest_at: nullable(Type.String({ format: 'date-time', description: 'When the next digest goes out (if anything is new); null for instant' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'MonitorRoute' },
);

export const routeListSchema = Type.Object({ data: Type.Array(routeSchema) }, { title: 'MonitorRouteList' });
