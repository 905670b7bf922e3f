import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import type { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { SubscriptionDeviceCustody } from './subscription-device-custody.service';
import type { SubscriptionRecord, SubscriptionStatus } from '../subscription.entity';

const NOW = new Date('2026-11-27T12:00:00Z');
const ORG = '7d3f1c52-8a51-4c0e-9a4e-2a3a1b0c9d11';

describe('SubscriptionDeviceCustody', () => {
  const record = jest.fn();
  const manager = {} as EntityManager;
  const custody = ({ fulfilmentOrgId }: { fulfilmentOrgId?: string } = { fulfilmentOrgId: ORG }) =>
    new SubscriptionDeviceCustody(
      { record } as unknown as EventOutbox,
      {
        subscriptions: { fulfilmentOrgId },
      } as AppConfig,
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

  beforeEach(() => jest.clearAllMocks());

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
