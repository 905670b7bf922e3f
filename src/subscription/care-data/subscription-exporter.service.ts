import type { AuditEventDto } from '../../audit/audit-event-view.dto';
import { AuditTrail } from '../../audit/audit-trail.service';
import { AppConfig } from '../../config/app-config';
import { subscriptionSubject } from '../subscription-audit';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuditActor } from '../../audit/audit-event.types';
import { parseUuid } from '../../config/uuid';
import {
  SubjectDeliveries,
  SubjectDelivery,
} from '../../outgoing-webhook/delivery/subject-deliveries.service';
import { SubscriptionHistoryEntry } from '../lifecycle/subscription-history.entity';
import { SubscriptionPersonalData } from './subscription-personal-data.service';
import { noSuchSubscription } from '../subscription.error';
import { lockSubscription } from '../subscription-row-lock';
import type { SubscriptionDetail } from '../subscription.service';

/** What is held about one subscription (contract section 9, "Told what is held"). */
export interface SubscriptionExport extends SubscriptionDetail {
  deliveries: SubjectDelivery[];
  /** Audit events whose subject is the record. */
  access: AuditEventDto[];
}

/**
 * The record, its history, who received its events and who looked at it: one read, one event,
 * under the record's lock.
 */
@Injectable()
export class SubscriptionExporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly personalData: SubscriptionPersonalData,
    private readonly deliveries: SubjectDeliveries,
    private readonly audit: AuditTrail,
    private readonly config: AppConfig,
  ) {}

  async export(id: string, actor: AuditActor): Promise<SubscriptionExport> {
    const canonical = parseUuid(id);
    const found = canonical
      ? await this.dataSource.transaction((m) => this.read(m, actor, canonical))
      : undefined;
    if (!found) throw noSuchSubscription();
    return found;
  }

  private async read(
    m: EntityManager,
    actor: AuditActor,
    id: string,
  ): Promise<SubscriptionExport | undefined> {
    // The record's lock, as erasure takes it: an erasure waits for this export to commit, or this
    // export for the erasure, and then reads the record erased (contract section 9).
    const sub = await lockSubscription(m, id);
    if (!sub) return undefined;
    const subscription = await this.personalData.openOne(sub, m);
    const history = await m.find(SubscriptionHistoryEntry, {
      where: { subscriptionId: id },
      order: { eventCreatedAt: 'ASC', id: 'ASC' },
    });
    const deliveries = await this.deliveries.deliveredOf(id, m);
    // The export itself is remembered first, so the customer is told of this look too.
    const subject = subscriptionSubject(this.config, id);
    await this.audit.append({ action: 'subscription.exported', actor, subject }, m);
    const access = await this.audit.ofSubject(subject.type, id, m);
    return { subscription, history, deliveries, access };
  }
}
