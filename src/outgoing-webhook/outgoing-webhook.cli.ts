import { CliCommand, CliNeeds, dtoFrom, ORG_FLAG, str } from '../cli/cli-command';
import { AuditLog } from '../common/logging/audit-log';
import { Organization } from '../org/organization.entity';
import { OrgService } from '../org/org.service';
import { DeliveryWake } from './delivery-wake.service';
import { EventOutbox } from './event-outbox.service';
import { systemResolver, WEBHOOK_RESOLVER } from './outgoing-webhook-address';
import { WebhookDelivery } from './outgoing-webhook-delivery.entity';
import { WebhookEndpoint } from './outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from './outgoing-webhook-event.entity';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliveryStore } from './webhook-delivery.store';
import { CreateWebhookEndpointDto } from './webhook-endpoint.dto';
import { WebhookEndpointService } from './webhook-endpoint.service';

/** The endpoint and delivery services without the worker: the running service sends. */
const WEBHOOKS: CliNeeds = {
  entities: [WebhookEndpoint, OutgoingEvent, WebhookDelivery, Organization],
  providers: [
    WebhookEndpointService,
    WebhookDeliveryService,
    WebhookDeliveryStore,
    EventOutbox,
    DeliveryWake,
    AuditLog,
    OrgService,
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
  ],
};

const CLI_ACTOR = 'cli';

export const outgoingWebhookCommands: Record<string, CliCommand> = {
  'webhook-endpoint:list': {
    summary: "List an organization's webhook endpoints",
    usage: 'webhook-endpoint:list --org ID',
    options: { org: ORG_FLAG },
    needs: WEBHOOKS,
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return app.get(WebhookEndpointService).list(org.id);
      }),
  },
  'webhook-endpoint:add': {
    summary: 'Register a webhook endpoint; prints it with its signing secret',
    usage: 'webhook-endpoint:add --org ID --url URL [--event-types T1,T2] [--description D]',
    options: {
      org: ORG_FLAG,
      url: { type: 'string', required: true, help: 'where events are POSTed' },
      'event-types': { type: 'string', help: 'comma-separated; default: every type it may get' },
      description: { type: 'string', help: 'a note for people' },
    },
    needs: WEBHOOKS,
    prepare: async (args) => {
      const types = str(args, 'event-types');
      const extra = types ? { event_types: types.split(',').map((t) => t.trim()) } : {};
      const body = await dtoFrom(CreateWebhookEndpointDto, args, ['url', 'description'], extra);
      return async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return app.get(WebhookEndpointService).create(org.id, body, CLI_ACTOR);
      };
    },
  },
  'webhook-delivery:retry': {
    summary: 'Make a new attempt of one delivery now, also a failed one',
    usage: 'webhook-delivery:retry --endpoint ID --event ID',
    options: {
      endpoint: { type: 'string', required: true, help: "the endpoint's id" },
      event: { type: 'string', required: true, help: "the event's id (webhook-id)" },
    },
    needs: WEBHOOKS,
    prepare: (args) =>
      Promise.resolve((app) =>
        app.get(WebhookDeliveryService).retry(undefined, str(args, 'endpoint'), str(args, 'event')),
      ),
  },
};
