import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { DeviceAssertionJti } from './device-assertion-jti.entity';

/**
 * First use wins, atomically across instances (the primary key). The same statement drops this
 * device's own expired ids, so a device that keeps signing in keeps its rows few.
 */
const CONSUME_SQL = `WITH expired AS (
    DELETE FROM device_assertion_jtis WHERE device_pk = $1 AND expires_at < $4
  )
  INSERT INTO device_assertion_jtis (device_pk, jti, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING RETURNING jti`;

/** The assertion ids devices have used, kept in the database until they could no longer be accepted. */
@Injectable()
export class DeviceJtiStore {
  constructor(
    @InjectRepository(DeviceAssertionJti) private readonly jtis: Repository<DeviceAssertionJti>,
    private readonly clock: Clock,
  ) {}

  /** True the first time the device uses `jti`; false for a replay, on any instance. */
  async consume(devicePk: string, jti: string, keepUntil: Date): Promise<boolean> {
    const rows = await this.jtis.query<unknown[]>(CONSUME_SQL, [
      devicePk,
      jti,
      keepUntil,
      this.clock.now(),
    ]);
    return rows.length === 1;
  }
}
