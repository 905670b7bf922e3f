import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import type { OpenKey } from '../../personal-data/personal-data.service';
import type { PersonalFields } from '../subscription.entity';
import { SubscriptionPersonalData } from './subscription-personal-data.service';

const BATCH = 200;
const PENDING_TABLE_SQL = `SELECT to_regclass('personal_data_to_seal') IS NOT NULL AS "exists"`;
const BATCH_SQL = `SELECT subscription_id AS id, fields FROM personal_data_to_seal
  ORDER BY subscription_id LIMIT $1 FOR UPDATE SKIP LOCKED`;
const SEAL_SQL = `UPDATE subscriptions SET personal = $2, email_hash = $3, customer_email_hash = $4
  WHERE id = $1`;
const DONE_SQL = 'DELETE FROM personal_data_to_seal WHERE subscription_id = ANY($1::uuid[])';

export interface SealReport {
  records: number;
  events: number;
  /** True once nothing is left in plain text and the holding table is gone. */
  done: boolean;
}

/**
 * The one step that seals what an earlier release stored in plain text (docs/privacy.md,
 * "Upgrading"): the migration moved it into `personal_data_to_seal`; this seals each record, and
 * its outgoing events, under a data key of its own, a batch per transaction (resumable: a crash
 * loses nothing, the next boot goes on), then drops the emptied table. Runs at every boot before
 * the service answers, and as `npm run cli -- data:seal`.
 */
@Injectable()
export class SubscriptionSealing implements OnApplicationBootstrap {
  private readonly logger = new Logger('DataKeys');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly personalData: SubscriptionPersonalData,
    private readonly outbox: EventOutbox,
  ) {}

  /** What this process's boot sealed: `data:seal` boots this module too, so this step ran first. */
  private atBoot: SealReport = { records: 0, events: 0, done: true };

  async onApplicationBootstrap(): Promise<void> {
    const report = (this.atBoot = await this.sealAll());
    if (report.records > 0) {
      this.logger.log(`Sealed ${report.records} records and ${report.events} events`);
    }
  }

  /** `data:seal`: another pass (a batch another instance held), counting the boot's too. */
  async sealAllSinceBoot(): Promise<SealReport> {
    const now = await this.sealAll();
    return {
      records: this.atBoot.records + now.records,
      events: this.atBoot.events + now.events,
      done: now.done,
    };
  }

  async sealAll(): Promise<SealReport> {
    const report: SealReport = { records: 0, events: 0, done: false };
    if (!(await this.pending())) return { ...report, done: true };
    for (;;) {
      const batch = await this.dataSource.transaction((m) => this.sealBatch(m));
      report.records += batch.records;
      report.events += batch.events;
      if (batch.records === 0) break;
    }
    await this.dropWhenEmpty();
    return { ...report, done: !(await this.pending()) };
  }

  /** A second instance may still hold a batch: the table goes only once empty, under its lock. */
  private async dropWhenEmpty(): Promise<void> {
    try {
      await this.dataSource.transaction(async (m) => {
        await m.query('LOCK TABLE personal_data_to_seal IN ACCESS EXCLUSIVE MODE');
        const [{ n }] = await m.query<{ n: number }[]>(
          'SELECT count(*)::int AS n FROM personal_data_to_seal',
        );
        if (n === 0) await m.query('DROP TABLE personal_data_to_seal');
      });
    } catch (err) {
      // Another instance dropped it first: nothing is left to seal.
      if (await this.pending()) throw err;
    }
  }

  private async pending(): Promise<boolean> {
    const [row] = await this.dataSource.query<{ exists: boolean }[]>(PENDING_TABLE_SQL);
    return row.exists;
  }

  private async sealBatch(manager: EntityManager): Promise<{ records: number; events: number }> {
    const rows = await manager.query<{ id: string; fields: Partial<PersonalFields> }[]>(BATCH_SQL, [
      BATCH,
    ]);
    const keys = new Map<string, OpenKey>();
    for (const { id, fields } of rows) {
      const key =
        (await this.personalData.keyOf(id, manager)) ??
        (await this.personalData.newKey(id, manager));
      keys.set(id, key);
      await manager.query(SEAL_SQL, [
        id,
        this.personalData.seal(key, fields),
        this.personalData.emailHash(fields.email),
        this.personalData.emailHash(fields.customerEmail),
      ]);
    }
    const events = await this.outbox.sealPlainBodies(manager, keys);
    if (rows.length > 0) await manager.query(DONE_SQL, [rows.map((r) => r.id)]);
    return { records: rows.length, events };
  }
}
