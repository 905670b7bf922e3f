import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataKeyring } from '../../personal-data/data-keyring';
import { OpenKey, PersonalData } from '../../personal-data/personal-data.service';
import {
  PERSONAL_FIELDS,
  PersonalFields,
  Subscription,
  SubscriptionRecord,
} from '../subscription.entity';

/** Every personal field empty: an erased record, or one that never had them. */
export const NO_PERSONAL_FIELDS: Readonly<PersonalFields> = Object.freeze(
  Object.fromEntries(PERSONAL_FIELDS.map((f) => [f, null])) as PersonalFields,
);

/** The sealed column's JSON keeps only fields that have a value. */
function fieldsOf(json: string): PersonalFields {
  const parsed = JSON.parse(json) as Partial<Record<string, unknown>>;
  const fields = { ...NO_PERSONAL_FIELDS };
  for (const f of PERSONAL_FIELDS) {
    const v = parsed[f];
    if (typeof v === 'string') fields[f] = v;
  }
  return fields;
}

/**
 * A record's personal fields in and out of `personal` (docs/privacy.md): sealed under the
 * record's data key, whose owner is the record; the email hashes beside them for search.
 */
@Injectable()
export class SubscriptionPersonalData {
  constructor(
    private readonly personalData: PersonalData,
    private readonly keyring: DataKeyring,
  ) {}

  /** A new record's data key, before its row. */
  newKey(id: string, manager?: EntityManager): Promise<OpenKey> {
    return this.personalData.create(id, manager);
  }

  keyOf(id: string, manager?: EntityManager): Promise<OpenKey | null> {
    return this.personalData.keyOf(id, manager);
  }

  /** The record with its fields opened; empty when erased (no key) or never filled. */
  opened(sub: Subscription, key: OpenKey | null): SubscriptionRecord {
    const fields =
      key && sub.personal
        ? fieldsOf(this.personalData.open(key, sub.personal))
        : NO_PERSONAL_FIELDS;
    return Object.assign(sub, fields);
  }

  async openOne(sub: Subscription, manager?: EntityManager): Promise<SubscriptionRecord> {
    return this.opened(sub, await this.keyOf(sub.id, manager));
  }

  /** A page of records, their keys in one read. */
  async openMany(subs: Subscription[]): Promise<SubscriptionRecord[]> {
    const keys = await this.personalData.keysOf(subs.map((s) => s.id));
    return subs.map((s) => this.opened(s, keys.get(s.id) ?? null));
  }

  /** The fields that have a value, sealed; null when none has. */
  seal(key: OpenKey, fields: Partial<PersonalFields>): string | null {
    const kept = Object.fromEntries(
      PERSONAL_FIELDS.filter((f) => typeof fields[f] === 'string').map((f) => [f, fields[f]]),
    );
    return Object.keys(kept).length === 0
      ? null
      : this.personalData.seal(key, JSON.stringify(kept));
  }

  emailHash(email: string | null | undefined): string | null {
    return email ? this.keyring.emailHash(email) : null;
  }
}
