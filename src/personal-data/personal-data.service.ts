import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { changedRows } from '../database/changed-rows';
import { statementRows } from '../database/statement-rows';
import { DataKey } from './data-key.entity';
import { DataKeyring } from './data-keyring';
import { newDataKey, open, seal } from './personal-data.crypto';

/** An owner's data key, opened: what seals and opens its values. */
export interface OpenKey {
  owner: string;
  key: Buffer;
}

const KEY_OF_SQL = 'SELECT wrapped FROM data_keys WHERE id = $1';
const DESTROY_SQL = 'DELETE FROM data_keys WHERE id = $1';
const REKEY_BATCH_SQL = `SELECT id, wrapped FROM data_keys WHERE wrapped NOT LIKE $1
  ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`;
const NOT_REKEYED_SQL = 'SELECT count(*)::int AS n FROM data_keys WHERE wrapped NOT LIKE $1';

/**
 * The data keys of personal data's owners (envelope encryption, docs/privacy.md): made with the
 * owner, opened to read or write its values, destroyed to erase it.
 */
@Injectable()
export class PersonalData {
  constructor(
    @InjectRepository(DataKey) private readonly keys: Repository<DataKey>,
    private readonly keyring: DataKeyring,
    private readonly clock: Clock,
  ) {}

  /** A new data key for a new owner, stored wrapped before anything is sealed under it. */
  async create(owner: string, manager: EntityManager = this.keys.manager): Promise<OpenKey> {
    const key = newDataKey();
    await manager.insert(DataKey, {
      id: owner,
      wrapped: this.keyring.wrap(key),
      createdAt: this.clock.now(),
    });
    return { owner, key };
  }

  /**
   * Null once erased (the key destroyed). A constant statement: every processor event reads one
   * (docs/decisions/0012-constant-sql-on-hot-paths.md).
   */
  async keyOf(owner: string, manager: EntityManager = this.keys.manager): Promise<OpenKey | null> {
    const [row] = await statementRows<{ wrapped: string }>(manager, KEY_OF_SQL, [owner]);
    return row ? { owner, key: this.keyring.unwrap(row.wrapped) } : null;
  }

  /** Many owners' keys in one read (a page of records, a batch of deliveries). */
  async keysOf(owners: string[]): Promise<Map<string, OpenKey>> {
    if (owners.length === 0) return new Map();
    const rows = await this.keys.find({
      where: { id: In(owners) },
      select: { id: true, wrapped: true },
    });
    return new Map(rows.map((r) => [r.id, { owner: r.id, key: this.keyring.unwrap(r.wrapped) }]));
  }

  /** Erasure: every value sealed under the key is unreadable once this commits. */
  async destroy(owner: string, manager: EntityManager): Promise<boolean> {
    return (await changedRows(manager, DESTROY_SQL, [owner])).affected > 0;
  }

  seal(k: OpenKey, plain: string): string {
    return seal(k.key, k.owner, plain);
  }

  open(k: OpenKey, sealed: string): string {
    return open(k.key, k.owner, sealed);
  }

  /**
   * Rewraps up to `limit` data keys not yet under the current master key, in one transaction
   * (rows locked, skipped by a second rekey running beside it). 0: none left.
   */
  async rekeyBatch(limit: number): Promise<number> {
    return this.keys.manager.transaction(async (manager) => {
      const rows = await manager.query<{ id: string; wrapped: string }[]>(REKEY_BATCH_SQL, [
        this.keyring.currentKeyPattern,
        limit,
      ]);
      for (const row of rows) {
        const wrapped = this.keyring.wrap(this.keyring.unwrap(row.wrapped));
        await manager.update(DataKey, row.id, { wrapped });
      }
      return rows.length;
    });
  }

  /** Data keys not under the current master key, as committed (rekey's last check). */
  async notRekeyed(manager: EntityManager = this.keys.manager): Promise<number> {
    const [{ n }] = await manager.query<{ n: number }[]>(NOT_REKEYED_SQL, [
      this.keyring.currentKeyPattern,
    ]);
    return n;
  }
}
