import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Subscription } from '../../src/checkout/subscription.entity';
import { Organization } from '../../src/org/organization.entity';
import { OrgService } from '../../src/org/org.service';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export function createOrg(
  app: INestApplicationContext,
  name = unique('org'),
): Promise<Organization> {
  return app.get(OrgService).create(name);
}

/** A pending lease subscription, as the checkout leaves it once the hosted session is open. */
export function createPendingSubscription(
  app: INestApplicationContext,
  overrides: Partial<Subscription> = {},
): Promise<Subscription> {
  const repo = app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
  return repo.save(
    repo.create({
      product: 'lease',
      status: 'pending',
      email: `${unique('buyer')}@example.com`,
      source: 'plans',
      leaseCents: 24900,
      monthlyCents: 5000,
      currency: 'usd',
      checkoutSessionId: unique('cs_test'),
      ...overrides,
    }),
  );
}
