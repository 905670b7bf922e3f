import { ApiProperty } from '@nestjs/swagger';
import type { Page } from '../../common/pagination/page';
import type { ShippableDevice } from './shippable-devices.service';

export class ShippableDeviceDto {
  @ApiProperty({ example: 'hub-000123' })
  device_id!: string;

  @ApiProperty({ example: 'hub-3' })
  model!: string;
}

/** A page of the devices `Ship device` may pick. */
export class ShippableDevicePageDto {
  @ApiProperty({ type: [ShippableDeviceDto] })
  items!: ShippableDeviceDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page' })
  next_cursor!: string | null;

  static from(page: Page<ShippableDevice>): ShippableDevicePageDto {
    return {
      items: page.items.map((d) => ({ device_id: d.device_id, model: d.model })),
      next_cursor: page.next_cursor,
    };
  }
}
