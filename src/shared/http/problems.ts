import { STATUS_CODES } from 'node:http';
import Type from 'typebox';
import type { AppError } from '../errors.ts';
import { problemBody } from './error-mapper.ts';

const integer = (description: string) => Type.Integer({ description });
const text = (description: string) => Type.String({ description });

/**
 * RFC 9457 problem details with every extension member this API adds, typed, each saying which codes
 * carry it. Each response narrows `code` to the codes it can carry (problemResponses below).
 */
export const problemSchema = Type.Object(
  {
    type: Type.String({ description: 'urn:subpilot:problem:<code>' }),
    title: Type.String({ description: 'The HTTP status phrase' }),
    status: Type.Integer(),
    detail: Type.String({ description: 'What happened and what to do, in words for a person' }),
    code: Type.String({ description: 'Stable machine-readable code: branch on this, never on `detail`' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: text('JSON pointer to the field'),
          message: text('What is wrong with it'),
          position: Type.Optional(integer('For a text with a syntax (a query): the character the problem is at, counted from 1')),
        }),
        {
          description: 'request.invalid: one entry per problem',
        },
      ),
    ),
    balance: Type.Optional(integer('credits.insufficient: the spendable balance')),
    required: Type.Optional(integer('credits.*: what the request costs')),
    buy_url: Type.Optional(Type.String({ format: 'uri', description: 'credits.insufficient: the page that sells credits, when this service sells them' })),
    packs: Type.Optional(Type.Array(Type.Integer(), { description: 'billing.unknown_pack: the credits of each pack on sale' })),
    limit: Type.Optional(integer("credits.key_limit_reached: the key's monthly limit; monitors.*: this server's cap")),
    spent: Type.Optional(integer('credits.key_limit_reached: spent by the key this UTC month')),
    resets_at: Type.Optional(Type.String({ format: 'date-time', description: 'credits.key_limit_reached: when the month ends' })),
    used: Type.Optional(integer('monitors.limit_reached, monitors.too_many_subreddits: in use now')),
    would_use: Type.Optional(integer('monitors.too_many_subreddits: in use after this change')),
    estimated_per_day: Type.Optional(integer("monitors.volume_too_high: the preview's matches a day (`limit`: the server's, above which confirm_volume is needed)")),
    preview: Type.Optional(
      Type.Object(
        {
          matched_last_hour: Type.Integer(),
          items_in_window: Type.Integer(),
          window_started_at: Type.String({ format: 'date-time' }),
          estimated_per_day: Type.Integer(),
          daily_limit: Type.Integer(),
          reason: Type.Null(),
        },
        { description: "monitors.volume_too_high: the monitor's preview (MonitorPreview) that the refusal is about" },
      ),
    ),
    policy: Type.Optional(
      Type.Union([Type.Literal('per-key'), Type.Literal('per-account')], { description: 'rate_limit.exceeded: the limit that ran out' }),
    ),
    required_scope: Type.Optional(text('auth.insufficient_scope: the scope this endpoint needs')),
    key_scopes: Type.Optional(Type.Array(Type.String(), { description: 'auth.insufficient_scope: the scopes the key has' })),
    scrape_id: Type.Optional(text('The scrape this answer is about')),
    generation_id: Type.Optional(text('The generation this answer is about')),
    publication_id: Type.Optional(text('The publication this answer is about')),
    monitor_id: Type.Optional(text('The monitor this answer is about')),
    reddit_error: Type.Optional(text("publish.rejected, publish.rate_limited: Reddit's error name, e.g. SUBREDDIT_NOTALLOWED")),
    reddit_message: Type.Optional(text("publish.rejected: Reddit's own words")),
    reddit_field: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'publish.rejected: the field Reddit blamed' })),
    upstream_status: Type.Optional(integer("publish.reddit_unavailable: Reddit's HTTP status")),
    retry_at: Type.Optional(Type.String({ format: 'date-time', description: 'publish.subreddit_pace, publish.hourly_pace: when the pace lets the next publication through' })),
    docs: Type.Optional(
      Type.String({
        format: 'uri-reference',
        description: 'Where a guide explains this problem: a path on this server (/docs/guides/…), resolved against the URL called',
      }),
    ),
  },
  { $id: 'Problem', additionalProperties: false },
);

/**
 * The problem answers of a route, described from samples of the errors themselves (made by the same
 * factories that throw them), so each status lists exactly the codes, members and headers it carries.
 */
export function problemResponses(samples: readonly AppError[]): Record<number, unknown> {
  const byStatus = new Map<number, AppError[]>();
  for (const sample of samples) byStatus.set(sample.status, [...(byStatus.get(sample.status) ?? []), sample]);
  return Object.fromEntries(
    [...byStatus].map(([status, errors]) => {
      const codes = [...new Set(errors.map((e) => e.code))];
      // A member is required only when every code of this status carries it.
      const members = errors.map((e) => Object.keys(e.extra));
      const required = members[0]!.filter((name) => members.every((names) => names.includes(name)));
      const headers = [...new Set(errors.flatMap((e) => Object.keys(e.headers)))];
      const codeDescriptions = codes.map((code) => `\`${code}\``).join(', ');
      return [
        status,
        {
          description: `${STATUS_CODES[status]}: ${codeDescriptions}`,
          headers: Object.fromEntries(headers.map((name) => [name, { type: 'string' }])),
          content: {
            'application/problem+json': {
              schema: {
                allOf: [
                  Type.Ref('Problem'),
                  { type: 'object', properties: { code: { enum: codes } }, required: ['code', ...required] },
                ],
              },
              // One example per code: its first sample.
              examples: Object.fromEntries(codes.map((code) => [code, { value: problemBody(errors.find((e) => e.code === code)!) }])),
            },
          },
        },
      ];
    }),
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Samples of the errors this route's own usecase can answer (the checks every /api/v1/ route passes
     * add theirs: src/app/api.describe.ts); the API document lists them, so write every one.
     */
    errors?: AppError[];
  }
}
