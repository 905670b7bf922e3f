import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CURSOR_FIELD } from '../../common/pagination/keyset-cursor';
import { keysetPage, KeysetOrder, PageRequest } from '../../common/pagination/keyset-page';
import { Page } from '../../common/pagination/page';
import { AppConfig } from '../../config/app-config';
import { LIVE_STATUSES_SQL } from '../subscription.entity';

export interface ShippableDevice {
  device_id: string;
  model: string;
}

/**
 * What `Ship device` may pick (contract section 11): the fulfilment organization's active
 * devices that no live record holds, in `device_id` order (byte order, collation "C").
 */
const SHIPPABLE_SQL = `SELECT d.device_id, d.model FROM devices d
  WHERE d.org_id = $1 AND d.status = 'active' AND d.device_id > $2
    AND NOT EXISTS (SELECT 1 FROM subscriptions s
      WHERE s.device_id = d.device_id AND s.status IN (${LIVE_STATUSES_SQL}))
  ORDER BY d.device_id LIMIT $3`;

const ORDER: KeysetOrder<ShippableDevice, { device_id: string }> = {
  positionOf: (row) => ({ device_id: row.device_id }),
  read: (f) => (CURSOR_FIELD.text(f.device_id) ? { device_id: f.device_id } : undefined),
};

@Injectable()
export class ShippableDevices {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** Its guard let only users of FULFILMENT_ORG_ID in, so the organization is set. */
  list(page: PageRequest): Promise<Page<ShippableDevice>> {
    const orgId = this.config.subscriptions.fulfilmentOrgId;
    if (!orgId) return Promise.resolve({ items: [], next_cursor: null });
    return keysetPage(page, ORDER, (after, take) =>
      this.dataSource.query<ShippableDevice[]>(SHIPPABLE_SQL, [
        orgId,
        after?.device_id ?? '',
        take,
      ]),
    );
  }
}
