import Type, { type Static } from 'typebox';
import { NOT_BLANK, nullable } from '../../shared/http/schemas.ts';

const kind = Type.Union([Type.Literal('slack'), Type.Literal('discord')], { description: 'The service the URL belongs to' });

export const destinationBodySchema = Type.Object(
  {
    kind,
    name: Type.String({ minLength: 1, maxLength: 100, ...NOT_BLANK, description: 'A name to tell it by, e.g. the channel: #leads' }),
    url: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '^https?://',
      'x-rule': 'must be the webhook URL the service gave',
      description:
        'The webhook URL: a Slack incoming webhook (https://hooks.slack.com/services/T…/B…/…) or a Discord webhook ' +
        '(https://discord.com/api/webhooks/<id>/<token>). It is a secret: kept encrypted, never shown again (answers show its last four characters).',
    }),
  },
  { additionalProperties: false, title: 'DestinationCreate' },
);
export type DestinationBody = Static<typeof destinationBodySchema>;

export const destinationTestSchema = Type.Object(
  { text: Type.Optional(Type.String({ minLength: 1, maxLength: 500, ...NOT_BLANK, description: 'The text of the test message; a standard one when left out' })) },
  { additionalProperties: false, title: 'DestinationTest' },
);

export const destinationParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const destinationSchema = Type.Object(
  {
    id: Type.String(),
    kind,
    name: Type.String(),
    url: Type.String({ description: 'The last four characters of the webhook URL, after …/' }),
    status: Type.Union([Type.Literal('active'), Type.Literal('off')], { description: '"off": the service said the webhook is gone; nothing more is sent' }),
    off_reason: nullable(Type.String({ description: 'What the service answered when it was switched off' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Destination' },
);

export const destinationListSchema = Type.Object({ data: Type.Array(destinationSchema) }, { title: 'DestinationList' });

const attemptSchema = Type.Object({
  attempted_at: Type.String({ format: 'date-time' }),
  status_code: nullable(Type.Integer({ description: "The service's HTTP status; null when it did not answer" })),
  answer: Type.String({ description: "The service's answer, up to 500 characters" }),
  error: nullable(Type.String()),
  duration_ms: Type.Integer(),
});

export const deliverySchema = Type.Object(
  {
    id: Type.String(),
    subject: Type.String({ description: 'What the message is about: test:<id>, or the match it announces' }),
    status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]),
    created_at: Type.String({ format: 'date-time' }),
    sent_at: nullable(Type.String({ format: 'date-time' })),
    receipt: nullable(Type.String({ description: "The service's id of the message where it gives one (Discord); null for Slack" })),
    error: nullable(Type.String({ description: 'Why it failed for good' })),
    attempts: Type.Array(attemptSchema, { description: 'Every attempt, oldest first' }),
  },
  { title: 'DestinationDelivery' },
);

export const deliveryListSchema = Type.Object({ data: Type.Array(deliverySchema) }, { title: 'DestinationDeliveryList' });
