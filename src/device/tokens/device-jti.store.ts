import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { DeviceAssertionJti } from './device-assertion-jti.entity';
import { CONSUME_JTI_SQL } from './device-token.sql';

/** The assertion ids devices have used, kept in the database until they could no longer be accepted. */
@Injectable()
export class DeviceJtiStore {
  constructor(
    @InjectRepository(DeviceAssertionJti) private readonly jtis: Repository<DeviceAssertionJti>,
    private readonly clock: Clock,
  ) {}

  /** True the first time the device uses `jti`; false for a replay, on any instance. */
  async consume(devicePk: string, jti: string, keepUntil: Date): Promise<boolean> {
    const rows = await this.jtis.query<unknown[]>(CONSUME_JTI_SQL, [
      devicePk,
      jti,
      keepUntil,
      this.clock.now(),
    ]);
    return rows.length === 1;
  }
}
