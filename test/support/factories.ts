import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import {
  PERSONAL_FIELDS,
  Subscription,
  SubscriptionRecord,
} from '../../src/subscription/subscription.entity';
import {
  NO_PERSONAL_FIELDS,
  SubscriptionPersonalData,
} from '../../src/subscription/care-data/subscription-personal-data.service';
import type { Role } from '../../src/common/auth/auth-user';
import { User } from '../../src/auth/user.entity';
import { UserService } from '../../src/users/user.service';
import { Device } from '../../src/device/device.entity';
import { DeviceService, NewDevice } from '../../src/device/registry/device.service';
import { Organization } from '../../src/org/organization.entity';
import { OrgService } from '../../src/org/org.service';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export function createOrg(
  app: INestApplicationContext,
  name = unique('org'),
): Promise<Organization> {
  return app.get(OrgService).create(name);
}

/**
 * A pending lease subscription, as the checkout leaves it once the hosted session is open (no
 * event): its personal fields sealed under a data key of its own, as the service stores them.
 */
export async function createPendingSubscription(
  app: INestApplicationContext,
  overrides: Partial<SubscriptionRecord> = {},
): Promise<SubscriptionRecord> {
  const repo = app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
  const personal = app.get(SubscriptionPersonalData);
  const fields = { ...NO_PERSONAL_FIELDS, email: `${unique('buyer')}@example.com`, ...overrides };
  const id = overrides.id ?? randomUUID();
  const key = await personal.newKey(id);
  const columns = Object.fromEntries(
    Object.entries(fields).filter(([f]) => !(PERSONAL_FIELDS as readonly string[]).includes(f)),
  );
  const now = new Date();
  const saved = await repo.save(
    repo.create({
      product: 'lease',
      status: 'pending',
      source: 'plans',
      leaseCents: 24900,
      monthlyCents: 5000,
      currency: 'usd',
      checkoutSessionId: unique('cs_test'),
      statusChangedAt: now,
      ...columns,
      id,
      personal: personal.seal(key, fields),
      emailHash: personal.emailHash(fields.email),
      customerEmailHash: personal.emailHash(fields.customerEmail),
    }),
  );
  return personal.opened(saved, key);
}

/** An account (not yet linked to an identity); a new org unless `orgId` is given. */
export async function createUser(
  app: INestApplicationContext,
  opts: { orgId?: string; email?: string; role?: Role; name?: string } = {},
): Promise<User> {
  const orgId = opts.orgId ?? (await createOrg(app)).id;
  return app.get(UserService).create(orgId, {
    email: opts.email ?? `${unique('user')}@example.com`,
    role: opts.role ?? 'member',
    name: opts.name,
  });
}

/** A registered, active device in the org; the device_id is unique per call unless given. */
export function createDevice(
  app: INestApplicationContext,
  orgId: string,
  overrides: Partial<NewDevice> = {},
): Promise<Device> {
  return app.get(DeviceService).register(orgId, {
    deviceId: unique('dev').toLowerCase(),
    model: 'hub-2',
    provider: 'acme',
    ...overrides,
  });
}
