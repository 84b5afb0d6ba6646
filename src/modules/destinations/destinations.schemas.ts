import Type, { type Static } from 'typebox';
import { fieldRule } from '../../shared/http/field-rules.ts';
import { NOT_BLANK, nullable } from '../../shared/http/schemas.ts';

const kind = Type.Union([Type.Literal('slack'), Type.Literal('discord'), Type.Literal('email'), Type.Literal('telegram')], {
  description: 'Where the messages go: a Slack or Discord webhook, an email address (confirmed by a link first), a Telegram chat (linked through the bot)',
});
const name = Type.String({ minLength: 1, maxLength: 100, ...NOT_BLANK, description: 'A name to tell it by, e.g. the channel: #leads' });
const url = Type.String({
  minLength: 1,
  maxLength: 500,
  pattern: '^https?://',
  'x-rule': 'must be the webhook URL the service gave',
  description:
    'slack and discord only: the webhook URL, a Slack incoming webhook (https://hooks.slack.com/services/T…/B…/…) or a Discord webhook ' +
    '(https://discord.com/api/webhooks/<id>/<token>). It is a secret: kept encrypted, never shown again (answers show its last four characters).',
});

/** Which field names where a kind's messages go (refused as destinations.invalid_target). */
const given = (field: string) => ({ required: [field], properties: { [field]: { type: 'string' } } });
const TARGET_OF_KIND = fieldRule('destinations.invalid_target', {
  oneOf: [
    { required: ['kind', 'url'], properties: { kind: { enum: ['slack', 'discord'] }, url: { type: 'string' } }, not: given('address') },
    { required: ['kind', 'address'], properties: { kind: { const: 'email' }, address: { type: 'string' } }, not: given('url') },
    { required: ['kind'], properties: { kind: { const: 'telegram' } }, not: { anyOf: [given('url'), given('address')] } },
  ],
});

export const destinationBodySchema = Type.Object(
  {
    kind,
    name,
    url: Type.Optional(url),
    address: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: 'email only: the address; it gets one mail with a link to confirm it, and nothing else until then' }),
    ),
  },
  { additionalProperties: false, title: 'DestinationCreate', ...TARGET_OF_KIND },
);
export type DestinationBody = Static<typeof destinationBodySchema>;

export const destinationUpdateSchema = Type.Object(
  {
    name: Type.Optional(name),
    url: Type.Optional(Type.String({ ...url, description: 'slack and discord only: a new webhook URL; the destination is active again, also after a switch-off' })),
  },
  { additionalProperties: false, title: 'DestinationUpdate' },
);

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
    url: nullable(Type.String({ description: 'slack and discord: the last four characters of the webhook URL, after …/' })),
    address: nullable(Type.String({ description: 'email: the address' })),
    chat: nullable(Type.String({ description: "telegram: the linked chat's name, once linked" })),
    status: Type.Union([Type.Literal('unconfirmed'), Type.Literal('active'), Type.Literal('off')], {
      description: '"unconfirmed": the address\'s link not yet followed, the chat not yet linked (nothing else is sent to it); "off": gone or unsubscribed, nothing more is sent',
    }),
    off_reason: nullable(Type.String({ description: 'What the service answered when it was switched off, or that the recipient unsubscribed' })),
    link: nullable(
      Type.String({ description: "telegram, while unconfirmed: open it in Telegram and press Start to link the chat (https://t.me/<bot>?start=<code>); it works until confirm_by; null for a moment if Telegram does not answer the bot's name" }),
    ),
    confirm_by: nullable(Type.String({ format: 'date-time', description: 'While unconfirmed: when the link (mailed, or above) stops working' })),
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
