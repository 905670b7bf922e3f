import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { AuditLog } from '../../common/logging/audit-log';
import { AuditTrail } from '../../audit/audit-trail.service';
import { cliActor, userActor } from '../../audit/audit-event.types';
import { AppConfig } from '../../config/app-config';
import { OrgService } from '../../org/org.service';
import { parseUuid } from '../../config/uuid';
import { EventOutbox } from '../outbox/event-outbox.service';
import {
  AddressRefused,
  checkTarget,
  checkUrl,
  WEBHOOK_RESOLVER,
  webhookUrlAsStored,
} from './outgoing-webhook-address';
import type { WebhookResolver } from './outgoing-webhook-address';
import { WebhookEndpoint } from './outgoing-webhook-endpoint.entity';
import { newWebhookSecret, sealSecret } from './outgoing-webhook-secrets';
import { DataKeyring } from '../../personal-data/data-keyring';
import { OutgoingWebhookError } from '../outgoing-webhook.error';
import { typesFor } from '../outgoing-webhook.types';
import { WebhookDeliveryStore } from '../delivery/webhook-delivery.store';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';

export const MAX_ENDPOINTS_PER_ORG = 10;
/** How long the previous secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** Who changed an endpoint, for its audit line: a user id or `cli`. */
export type EndpointActor = string;

/** A new endpoint and its plain secret, which is stored only encrypted and shown this once. */
export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** An organization's webhook endpoints: the API and the command line. */
@Injectable()
export class WebhookEndpointService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly config: AppConfig,
    private readonly keyring: DataKeyring,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly store: WebhookDeliveryStore,
    private readonly audit: AuditLog,
    private readonly trail: AuditTrail,
    private readonly orgs: OrgService,
    @Inject(WEBHOOK_RESOLVER) private readonly resolve: WebhookResolver,
  ) {}

  async create(
    orgId: string,
    body: CreateWebhookEndpointDto,
    actor: EndpointActor,
  ): Promise<CreatedEndpoint> {
    const url = await this.allowedUrl(body.url);
    const eventTypes = this.allowedTypes(orgId, body.event_types);
    const secret = newWebhookSecret();
    const saved = await this.endpoints.manager.transaction(async (m) => {
      // The org's row lock makes concurrent creations count one after the other.
      await this.orgs.lockRows(m, [orgId]);
      const [{ n }] = await m.query<{ n: string }[]>(
        'SELECT count(*) AS n FROM webhook_endpoints WHERE org_id = $1',
        [orgId],
      );
      if (Number(n) >= MAX_ENDPOINTS_PER_ORG) {
        throw new OutgoingWebhookError(
          ErrorCode.LimitReached,
          `An organization has at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints.`,
        );
      }
      return m.save(
        m.create(WebhookEndpoint, {
          orgId,
          url,
          description: body.description ?? null,
          eventTypes,
          enabled: true,
          secretEncrypted: sealSecret(this.keyring, secret),
          previousSecretEncrypted: null,
          previousSecretExpiresAt: null,
          failingSince: null,
          createdAt: this.clock.now(),
        }),
      );
    });
    await this.auditChange('webhook_endpoint_created', saved, actor);
    return { endpoint: saved, secret };
  }

  /** Oldest first; at most `MAX_ENDPOINTS_PER_ORG`, so one unpaged list. */
  list(orgId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.find({
      where: { orgId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  get(orgId: string, id: string): Promise<WebhookEndpoint> {
    return this.find(orgId, id);
  }

  async update(
    orgId: string,
    id: string,
    body: UpdateWebhookEndpointDto,
    actor: EndpointActor,
  ): Promise<WebhookEndpoint> {
    const endpoint = await this.find(orgId, id);
    const patch: Partial<WebhookEndpoint> = {};
    if (body.url !== undefined) patch.url = await this.allowedUrl(body.url);
    if (body.description !== undefined) patch.description = body.description;
    if (body.event_types !== undefined) {
      patch.eventTypes = this.allowedTypes(orgId, body.event_types);
    }
    if (body.enabled === true) patch.failingSince = null;
    await this.endpoints.manager.transaction(async (m) => {
      const now = this.clock.now();
      if (Object.keys(patch).length > 0) await m.update(WebhookEndpoint, endpoint.id, patch);
      // Decided on the row as it is now, not as read before: the worker may have disabled it
      // (a 410, days of failures) in between.
      if (body.enabled === true) {
        const enabled = await m.update(
          WebhookEndpoint,
          { id: endpoint.id, enabled: false },
          {
            enabled: true,
          },
        );
        if (enabled.affected) await this.store.failPending(m, endpoint.id, now);
      }
      if (body.enabled === false) await this.store.disable(m, endpoint.id, orgId, null, now);
    });
    const updated = await this.find(orgId, id);
    await this.auditChange('webhook_endpoint_updated', updated, actor);
    return updated;
  }

  async remove(orgId: string, id: string, actor: EndpointActor): Promise<void> {
    const endpoint = await this.find(orgId, id);
    await this.endpoints.delete({ id: endpoint.id });
    await this.auditChange('webhook_endpoint_deleted', endpoint, actor);
  }

  /**
   * A new secret, returned in plain; the previous one keeps signing for 24 hours beside it. One
   * UPDATE moves the stored secret to `previous`: two rotations at once wait on the row's lock, and
   * the second keeps the first's secret (a read, then a write, lost one of the two).
   */
  async rotateSecret(orgId: string, id: string, actor: EndpointActor): Promise<string> {
    const endpoint = await this.find(orgId, id);
    const secret = newWebhookSecret();
    const now = this.clock.now();
    const rotated = await this.endpoints.update(endpoint.id, {
      previousSecretEncrypted: () => 'secret_encrypted',
      secretEncrypted: sealSecret(this.keyring, secret),
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    });
    if (!rotated.affected) throw notFound(); // deleted since it was found
    await this.auditChange('webhook_secret_rotated', endpoint, actor);
    return secret;
  }

  /**
   * A `webhook.test` to this endpoint alone, whatever its types, also while it is disabled;
   * returns the new event's id.
   */
  async sendTest(orgId: string, id: string): Promise<string> {
    const endpoint = await this.find(orgId, id);
    return this.endpoints.manager.transaction((m) => this.outbox.recordTest(m, endpoint));
  }

  /** The org's endpoint; another org's answers exactly like a missing one. */
  async find(orgId: string | undefined, id: string): Promise<WebhookEndpoint> {
    const canonical = parseUuid(id);
    const found = canonical
      ? await this.endpoints.findOneBy({ id: canonical, ...(orgId ? { orgId } : {}) })
      : null;
    if (!found) throw notFound();
    return found;
  }

  /** The URL rules at registration: syntax, scheme and, in production, where the name points. */
  private async allowedUrl(raw: string): Promise<string> {
    const { allowPrivate } = this.config.outgoingWebhooks;
    try {
      const url = checkUrl(raw, allowPrivate);
      if (!allowPrivate) await checkTarget(url, allowPrivate, this.resolve);
      return webhookUrlAsStored(raw); // the form whose length the DTO checked
    } catch (err) {
      if (!(err instanceof AddressRefused)) throw err;
      throw new OutgoingWebhookError(ErrorCode.WebhookUrlRefused, err.message, [
        { field: 'url', message: err.message },
      ]);
    }
  }

  private allowedTypes(orgId: string, asked: string[] | undefined): string[] {
    const allowed = typesFor(orgId, this.config.subscriptions.fulfilmentOrgId);
    if (asked === undefined) return allowed;
    const refused = asked.filter((t) => !allowed.includes(t));
    if (refused.length > 0) {
      const message = `this organization may not receive ${refused.join(', ')}`;
      throw new OutgoingWebhookError(ErrorCode.ValidationFailed, 'Event types not allowed.', [
        { field: 'event_types', message },
      ]);
    }
    return asked;
  }

  /** The change's `audit` line and its audit event (written after the change, before the answer). */
  private auditChange(event: EndpointEvent, e: WebhookEndpoint, actor: EndpointActor) {
    this.audit.record(event, event.replaceAll('_', ' '), {
      actor,
      endpoint_id: e.id,
      org_id: e.orgId,
    });
    return this.trail.append({
      action: ENDPOINT_ACTIONS[event],
      actor: actor === 'cli' ? cliActor() : userActor({ id: actor, orgId: e.orgId }),
      subject: { type: 'webhook_endpoint', id: e.id, orgId: e.orgId },
      details: event === 'webhook_endpoint_updated' ? { enabled: e.enabled } : {},
    });
  }
}

/** An endpoint's audit line, and the action of its audit event (docs/audit.md). */
const ENDPOINT_ACTIONS = {
  webhook_endpoint_created: 'webhook_endpoint.created',
  webhook_endpoint_updated: 'webhook_endpoint.changed',
  webhook_endpoint_deleted: 'webhook_endpoint.deleted',
  webhook_secret_rotated: 'webhook_endpoint.secret_rotated',
} as const;
type EndpointEvent = keyof typeof ENDPOINT_ACTIONS;

const notFound = () => new OutgoingWebhookError(ErrorCode.NotFound, 'No such webhook endpoint.');
