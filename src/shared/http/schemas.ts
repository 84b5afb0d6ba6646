import { STATUS_CODES } from 'node:http';
import Type from 'typebox';
import { SUBREDDIT_PATTERN, SUBREDDIT_RULE } from './subreddit.ts';

/** RFC 9457 problem details, with this API's extension members. */
export const problemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code, e.g. credits.insufficient' }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    balance: Type.Optional(Type.Integer()),
    required: Type.Optional(Type.Integer()),
    scrape_id: Type.Optional(Type.String()),
  },
  { $id: 'Problem', additionalProperties: true },
);

export const pageQuerySchema = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** A subreddit in a request, `r/<name>`; `description` says what it is for, else the rule. */
export const subredditSchema = (description = 'r/<name>: 2–21 of A–Z a–z 0–9 _, not starting with _') =>
  Type.String({ pattern: SUBREDDIT_PATTERN, 'x-rule': SUBREDDIT_RULE, description });

/** Error replies every /api/v1/ route can give; listed in the OpenAPI document. */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: STATUS_CODES[status], content: { 'application/problem+json': { schema: Type.Ref('Problem') } } },
    ]),
  );
