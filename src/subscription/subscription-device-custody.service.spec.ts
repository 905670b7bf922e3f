import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { EventOutbox } from '../outgoing-webhook/outbox/event-outbox.service';
import type { OpenKey } from '../personal-data/personal-data.service';
import { SubscriptionDeviceCustody } from './subscription-device-custody.service';
import type { SubscriptionPersonalData } from './subscription-personal.service';
import type { SubscriptionRecord, SubscriptionStatus } from './subscription.entity';

const NOW = new Date('2026-11-27T12:00:00Z');
const ORG = '7d3f1c52-8a51-4c0e-9a4e-2a3a1b0c9d11';

describe('SubscriptionDeviceCustody', () => {
  const query = jest.fn();
  const record = jest.fn();
  const seal = jest.fn().mockReturnValue('s1.resealed');
  // statementRows runs on the transaction's connection (statement-rows.ts).
  const manager = {
    queryRunner: { isTransactionActive: true, isReleased: false, connect: () => ({ query }) },
  } as unknown as EntityManager;
  const custody = ({ fulfilmentOrgId }: { fulfilmentOrgId?: string } = { fulfilmentOrgId: ORG }) =>
    new SubscriptionDeviceCustody(
      { seal } as unknown as SubscriptionPersonalData,
      { record } as unknown as EventOutbox,
      { now: () => NOW },
      { subscriptions: { fulfilmentOrgId } } as AppConfig,
    );
  const sub = (status: SubscriptionStatus, deviceId: string | null = 'hub-1') =>
    ({
      id: 'sub-1',
      status,
      deviceId,
      deviceAssignedAt: deviceId ? NOW : null,
      deviceActivatedAt: null,
      deviceCarrier: 'UPS',
      trackingNumber: '1Z',
    }) as unknown as SubscriptionRecord;
  const key = {} as OpenKey;

  beforeEach(() => jest.clearAllMocks());

  it('a record coming back to live lets go of a device another live record holds', async () => {
    query.mockResolvedValue({ rows: [{ id: 'other' }] });
    const s = sub('canceled');
    expect(await custody().beforeMove(manager, s, key, 'paid')).toBe(true);
    expect(s).toMatchObject({ deviceId: null, deviceCarrier: null, trackingNumber: null });
    expect(seal).toHaveBeenCalledWith(key, expect.objectContaining({ trackingNumber: null }));
    const release = query.mock.calls.find(([text]) => /device_id = NULL/.test(String(text)));
    expect(release?.[1]).toEqual(['sub-1', 's1.resealed', NOW]);
  });

  it('keeps the device when no one else holds it, and looks only on a move into live', async () => {
    query.mockResolvedValue({ rows: [] });
    const s = sub('canceled');
    expect(await custody().beforeMove(manager, s, key, 'past_due')).toBe(false);
    expect(s.deviceId).toBe('hub-1');
    query.mockClear();
    expect(await custody().beforeMove(manager, sub('paid'), key, 'past_due')).toBe(false);
    expect(await custody().beforeMove(manager, sub('paid'), key, 'canceled')).toBe(false);
    expect(await custody().beforeMove(manager, sub('expired', null), key, 'paid')).toBe(false);
    expect(query).not.toHaveBeenCalled();
  });

  it('asks the fulfilment organization for the device of a canceled record, only then', async () => {
    await custody().afterMove(manager, sub('canceled'), 'canceled');
    expect(record).toHaveBeenCalledWith(manager, {
      type: 'device.return_requested',
      orgId: ORG,
      data: { device_id: 'hub-1', subscription_id: 'sub-1' },
    });
    record.mockClear();
    await custody().afterMove(manager, sub('past_due'), 'past_due');
    await custody().afterMove(manager, sub('canceled', null), 'canceled');
    await custody({}).afterMove(manager, sub('canceled'), 'canceled');
    expect(record).not.toHaveBeenCalled();
  });
});
