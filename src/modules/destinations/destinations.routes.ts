import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { callerOf } from '../keys/keys.hooks.ts';
import { destinationsErrors } from './destinations.errors.ts';
import {
  deliveryListSchema,
  deliverySchema,
  destinationBodySchema,
  destinationListSchema,
  destinationParamsSchema,
  destinationSchema,
  destinationTestSchema,
  destinationUpdateSchema,
} from './destinations.schemas.ts';
import { MAX_DESTINATIONS, type DestinationsUsecases } from './destinations.usecases.ts';

const FREE = 'Free: destinations cost nothing, and neither do the messages sent to them.';

/** Where alerts go: the account's Slack and Discord webhooks, email addresses and Telegram chats (docs/api/destinations.md). */
export const destinationsRoutes: FastifyPluginAsyncTypebox<{ destinations: DestinationsUsecases }> = async (app, { destinations }) => {
  app.post(
    '/destinations',
    {
      config: {
        scope: 'monitors',
        errors: [
          destinationsErrors.invalidUrl('must be a Slack incoming-webhook URL, https://hooks.slack.com/services/T…/B…/…'),
          destinationsErrors.invalidTarget('email', 'address'),
          destinationsErrors.limitReached(MAX_DESTINATIONS),
          destinationsErrors.notConfigured(),
          destinationsErrors.channelNotConfigured('Telegram', 'TELEGRAM_BOT_TOKEN'),
        ],
      },
      schema: {
        summary: 'Add a destination for alerts: a Slack or Discord webhook, an email address, a Telegram chat',
        operationId: 'createDestination',
        description:
          "A webhook's URL must be the service's own; it is kept encrypted and never shown again, and the destination is active at once. " +
          'An email address gets one mail with a link and is `unconfirmed` until the link is followed. A Telegram destination answers ' +
          '`link`: the person opens it in Telegram and presses Start, and the chat they are in becomes the destination. ' +
          `Nothing but the confirmation is sent to an unconfirmed destination. ${FREE}`,
        tags: ['destinations'],
        body: destinationBodySchema,
        response: { 201: destinationSchema },
      },
    },
    async (request, reply) => {
      const destination = await destinations.create(callerOf(request).accountId, request.body);
      return reply.code(201).header('location', `/api/v1/destinations/${destination.id}`).send(destination);
    },
  );

  app.get(
    '/destinations',
    {
      config: { scope: 'read' },
      schema: {
        summary: "This account's destinations, newest first (free)",
        operationId: 'listDestinations',
        description: `Every destination, active and switched off, with the reason of a switch-off. ${FREE}`,
        tags: ['destinations'],
        response: { 200: destinationListSchema },
      },
    },
    async (request) => destinations.list(callerOf(request).accountId),
  );

  app.get(
    '/destinations/:id',
    {
      config: { scope: 'read', errors: [destinationsErrors.notFound()] },
      schema: { summary: 'One destination (free)', operationId: 'getDestination', description: FREE, tags: ['destinations'], params: destinationParamsSchema, response: { 200: destinationSchema } },
    },
    async (request) => destinations.get(callerOf(request).accountId, request.params.id),
  );

  app.patch(
    '/destinations/:id',
    {
      config: {
        scope: 'monitors',
        errors: [
          destinationsErrors.notFound(),
          destinationsErrors.invalidUrl('must be a Slack incoming-webhook URL, https://hooks.slack.com/services/T…/B…/…'),
          destinationsErrors.invalidTarget('email', 'url'),
          destinationsErrors.notConfigured(),
        ],
      },
      schema: {
        summary: 'Rename a destination, or give a webhook a new URL',
        operationId: 'updateDestination',
        description: `A new URL makes a switched-off webhook active again. An address or a chat cannot be changed: add a new destination. ${FREE}`,
        tags: ['destinations'],
        params: destinationParamsSchema,
        body: destinationUpdateSchema,
        response: { 200: destinationSchema },
      },
    },
    async (request) => destinations.update(callerOf(request).accountId, request.params.id, request.body),
  );

  app.delete(
    '/destinations/:id',
    {
      config: { scope: 'monitors', errors: [destinationsErrors.notFound()] },
      schema: {
        summary: 'Delete a destination and the record of its messages',
        operationId: 'deleteDestination',
        description: `Nothing more is sent to it, including messages still waiting. ${FREE}`,
        tags: ['destinations'],
        params: destinationParamsSchema,
        response: { 204: Type.Null({ description: 'Deleted' }) },
      },
    },
    async (request, reply) => {
      await destinations.remove(callerOf(request).accountId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/destinations/:id/test',
    {
      config: {
        scope: 'monitors',
        errors: [destinationsErrors.notFound(), destinationsErrors.off('Slack answered 404 no_service'), destinationsErrors.unconfirmed('email'), destinationsErrors.notConfigured()],
      },
      schema: {
        summary: 'Send a test message to a destination',
        operationId: 'testDestination',
        description: `Queued like every alert: sent at the destination's pace, every attempt recorded (see its deliveries). ${FREE}`,
        tags: ['destinations'],
        params: destinationParamsSchema,
        body: destinationTestSchema,
        response: { 202: deliverySchema },
      },
    },
    async (request, reply) => {
      const queued = await destinations.sendTest(callerOf(request).accountId, request.params.id, request.body.text);
      // Where to see it arrive: the destination's deliveries, every attempt with the service's answer.
      return reply.code(202).header('location', `/api/v1/destinations/${request.params.id}/deliveries`).send(queued);
    },
  );

  app.get(
    '/destinations/:id/deliveries',
    {
      config: { scope: 'read', errors: [destinationsErrors.notFound()] },
      schema: {
        summary: "A destination's newest messages, with every attempt and the service's answers (free)",
        operationId: 'listDestinationDeliveries',
        description: `The twenty newest, newest first. ${FREE}`,
        tags: ['destinations'],
        params: destinationParamsSchema,
        response: { 200: deliveryListSchema },
      },
    },
    async (request) => destinations.deliveries(callerOf(request).accountId, request.params.id),
  );
};
