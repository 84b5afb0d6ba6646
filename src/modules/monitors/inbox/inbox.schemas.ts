import Type, { type Static } from 'typebox';
import { nullable, pageQuerySchema } from '../../../shared/http/schemas.ts';
import { matchSchema } from '../monitors.schemas.ts';

export const inboxQuerySchema = Type.Object(
  {
    ...pageQuerySchema.properties,
    monitor_id: Type.Optional(
      Type.String({ pattern: '^mon_[0-9a-f]{28}$', 'x-rule': 'must be a monitor id: mon_ and 28 hex digits', description: 'Only this monitor\'s matches' }),
    ),
    status: Type.Optional(
      Type.String({
        pattern: '^(new|drafted|published|dismissed)(,(new|drafted|published|dismissed))*$',
        'x-rule': 'must be one or more of new, drafted, published, dismissed, separated by commas',
        description: 'Only matches in these states, e.g. new,drafted (default: all)',
      }),
    ),
    min_relevance: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Only matches the judge scored at least this (unjudged ones are left out)' })),
  },
  { additionalProperties: false },
);

export const inboxItemSchema = Type.Object(
  {
    ...matchSchema.properties,
    monitor_name: Type.String(),
    status_at: nullable(Type.String({ format: 'date-time', description: 'When the status last changed; null: never since it was found' })),
    draft: nullable(
      Type.Object(
        {
          id: Type.String(),
          status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
          body: nullable(Type.String()),
          error: nullable(Type.String()),
          edited_at: nullable(Type.String({ format: 'date-time' })),
        },
        { description: 'Its newest reply draft, in brief (GET /generations/{id} has all of it)' },
      ),
    ),
    publication: nullable(
      Type.Object(
        {
          id: Type.String(),
          status: Type.Union([Type.Literal('running'), Type.Literal('published'), Type.Literal('failed'), Type.Literal('unknown')]),
          permalink: nullable(Type.String()),
          author: nullable(Type.String({ description: 'The Reddit user it was posted as' })),
        },
        { description: 'The publication that answered it' },
      ),
    ),
  },
  { title: 'InboxItem' },
);

export const inboxListSchema = Type.Object(
  { data: Type.Array(inboxItemSchema), has_more: Type.Boolean(), next_cursor: nullable(Type.String()) },
  { title: 'InboxList' },
);

export const matchParamsSchema = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const matchPatchSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('new'), Type.Literal('dismissed')], {
      description: 'dismissed: not worth a reply; new: back in the inbox (drafted again when it has a draft). drafted and published are set by the service.',
    }),
  },
  { additionalProperties: false, title: 'MatchPatch' },
);

export type InboxQuery = Static<typeof inboxQuerySchema>;
