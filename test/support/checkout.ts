import type { INestApplicationContext } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import { FindOptionsWhere, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DataKeyring } from '../../src/personal-data/data-keyring';
import { PersonalData } from '../../src/personal-data/personal-data.service';
import { Subscription } from '../../src/subscription/subscription.entity';
import { SubscriptionPersonalData } from '../../src/subscription/care-data/subscription-personal-data.service';
import { SubscriptionService } from '../../src/subscription/subscription.service';
import { unique } from './factories';
import type { TestApp } from './test-app';

export const SITE_URL = 'https://care.example.test';

/** Processor settings pointing the real SDK at a fake (or a dead address) on 127.0.0.1. */
export function processorEnv(apiBase: string, extra: Record<string, string> = {}) {
  return {
    STRIPE_SECRET_KEY: 'sk_test_fake_key',
    STRIPE_LEASE_PRICE_ID: 'price_lease_test',
    STRIPE_MONTHLY_PRICE_ID: 'price_monthly_test',
    STRIPE_API_BASE: apiBase,
    SITE_URL,
    ...extra,
  };
}

/**
 * The records as stored, read back opened (their personal fields unsealed under each record's
 * data key), so a spec compares what the service holds; `update` writes columns as they are.
 */
export const subscriptionsOf = (t: TestApp) => {
  const repo = t.app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
  const personal = t.app.get(SubscriptionPersonalData);
  return {
    repo,
    findOneByOrFail: async (where: FindOptionsWhere<Subscription>) =>
      personal.openOne(await repo.findOneByOrFail(where)),
    findOneBy: async (where: FindOptionsWhere<Subscription>) => {
      const found = await repo.findOneBy(where);
      return found && personal.openOne(found);
    },
    findBy: async (where: FindOptionsWhere<Subscription>) =>
      personal.openMany(await repo.findBy(where)),
    update: (id: string, patch: QueryDeepPartialEntity<Subscription>) => repo.update(id, patch),
  };
};
/** The records of a checkout's email, found as the service finds them (its keyed hash), opened. */
export const subscriptionsByEmail = async (t: TestApp, email: string) => {
  const emailHash = t.app.get(DataKeyring).emailHash(email);
  return subscriptionsOf(t).findBy({ emailHash });
};
/** A stored event body, opened under its owner's data key when it is sealed (docs/privacy.md). */
export async function openedBody(
  app: INestApplicationContext,
  row: { payload: string; data_key_id: string | null },
): Promise<unknown> {
  if (row.data_key_id === null) return JSON.parse(row.payload);
  const personalData = app.get(PersonalData);
  const key = await personalData.keyOf(row.data_key_id);
  if (!key) throw new Error(`the data key of ${row.data_key_id} is gone (erased)`);
  return JSON.parse(personalData.open(key, row.payload));
}

/** One record as the service reads it: its personal fields opened under its data key. */
export const recordOf = (t: TestApp, id: string) => t.app.get(SubscriptionService).get(id);
export const newEmail = () => `${unique('buyer')}@example.com`;
