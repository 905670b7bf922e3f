import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Subscription } from '../../src/subscription/subscription.entity';
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

export const subscriptionsOf = (t: TestApp) =>
  t.app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
export const subscriptionsByEmail = (t: TestApp, email: string) =>
  subscriptionsOf(t).findBy({ email });
export const newEmail = () => `${unique('buyer')}@example.com`;
