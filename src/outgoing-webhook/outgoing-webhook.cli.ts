import { CliCommand, dtoFrom, ORG_FLAG, str } from '../common/cli/cli-command';
import { OrgService } from '../org/org.service';
import { OutgoingWebhookEndpointsModule } from './outgoing-webhook-endpoints.module';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import {
  CreateWebhookEndpointDto,
  WebhookEndpointCreatedDto,
  WebhookEndpointListDto,
  WebhookEventIdDto,
} from './endpoints/webhook-endpoint.dto';
import { WebhookEndpointService } from './endpoints/webhook-endpoint.service';

const CLI_ACTOR = 'cli';

export const outgoingWebhookCommands: Record<string, CliCommand> = {
  'webhook-endpoint:list': {
    summary: "List an organization's webhook endpoints",
    usage: 'webhook-endpoint:list --org ID',
    options: { org: ORG_FLAG },
    module: OutgoingWebhookEndpointsModule,
    prepare: (args) =>
      Promise.resolve(async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return WebhookEndpointListDto.from(await app.get(WebhookEndpointService).list(org.id));
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
    module: OutgoingWebhookEndpointsModule,
    prepare: async (args) => {
      const types = str(args, 'event-types');
      const extra = types ? { event_types: types.split(',').map((t) => t.trim()) } : {};
      const body = await dtoFrom(CreateWebhookEndpointDto, args, ['url', 'description'], extra);
      return async (app) => {
        const org = await app.get(OrgService).get(str(args, 'org'));
        return WebhookEndpointCreatedDto.withSecret(
          await app.get(WebhookEndpointService).create(org.id, body, CLI_ACTOR),
        );
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
    module: OutgoingWebhookEndpointsModule,
    prepare: (args) =>
      Promise.resolve(async (app) =>
        WebhookEventIdDto.from(
          await app
            .get(WebhookDeliveryService)
            .retry(undefined, str(args, 'endpoint'), str(args, 'event')),
        ),
      ),
  },
};
