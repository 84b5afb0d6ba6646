import Type from 'typebox';
import { COVERAGE_HOURS } from './stream.cycle.ts';

const source = Type.Union([Type.Literal('posts'), Type.Literal('comments')], { description: 'posts: t3_ ids; comments: t1_ ids' });

export const coverageQuerySchema = Type.Object(
  {
    hours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: COVERAGE_HOURS.most,
        description: `How many hours back, the current one included (default ${COVERAGE_HOURS.byDefault}, at most a week)`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const coverageSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether this server runs the stream now (REDDIT_STREAM_SHARE above 0); its past hours stay either way' }),
    hours: Type.Array(
      Type.Object(
        {
          hour: Type.String({ format: 'date-time', description: 'The start of the hour (UTC) the ids were walked in' }),
          source,
          first_id: Type.String({ description: 'The lowest fullname walked (asked or skipped) in the hour' }),
          last_id: Type.String({ description: 'The highest: every id between the two was asked or skipped' }),
          asked: Type.Integer({ description: 'Ids asked of Reddit (each counted once, however often asked)' }),
          returned: Type.Integer({ description: 'Of them, the ones Reddit returned: read and matched against every monitor' }),
          unavailable: Type.Integer({ description: 'Left out of two answers a minute apart: deleted, removed, private, or never visible' }),
          pending: Type.Integer({ description: 'Left out of the first answer, waiting for the second: asked = returned + unavailable + pending' }),
          skipped: Type.Integer({ description: 'Never asked: jumped over while the stream was too far behind (the ranges are in gaps)' }),
        },
        { title: 'StreamCoverageHour' },
      ),
      { description: 'Newest first, one entry per hour and source the stream walked' },
    ),
    gaps: Type.Array(
      Type.Object(
        {
          source,
          from_id: Type.String({ description: 'The first fullname skipped' }),
          to_id: Type.String({ description: 'The last fullname skipped, included' }),
          recorded_at: Type.String({ format: 'date-time' }),
        },
        { title: 'StreamGap' },
      ),
      { description: 'Every range of ids skipped in those hours, oldest first' },
    ),
  },
  { title: 'StreamCoverage' },
);
