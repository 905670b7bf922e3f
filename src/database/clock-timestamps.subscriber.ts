import { Injectable } from '@nestjs/common';
import {
  DataSource,
  EntityMetadata,
  EntitySubscriberInterface,
  InsertEvent,
  ObjectLiteral,
  UpdateEvent,
} from 'typeorm';
import { Clock } from '../common/clock/clock';

/**
 * Every entity's `createdAt` and `updatedAt` come from the Clock, never from the database's
 * `now()`: the reconciler and the retention rules compare them with Clock times, and tests move
 * the Clock. Registered on the DataSource as the TypeORM docs do it for Nest (a provider that
 * adds itself to `dataSource.subscribers`).
 */
@Injectable()
export class ClockTimestamps implements EntitySubscriberInterface {
  constructor(
    dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    dataSource.subscribers.push(this);
  }

  beforeInsert(event: InsertEvent<ObjectLiteral>): void {
    const now = this.clock.now();
    stamp(event.metadata, event.entity, 'createdAt', now, false);
    stamp(event.metadata, event.entity, 'updatedAt', now, false);
  }

  /** `entity` is the row being saved, or the values an `update()` sets. */
  beforeUpdate(event: UpdateEvent<ObjectLiteral>): void {
    if (event.entity) stamp(event.metadata, event.entity, 'updatedAt', this.clock.now(), true);
  }
}

function stamp(
  metadata: EntityMetadata,
  entity: ObjectLiteral | undefined,
  property: 'createdAt' | 'updatedAt',
  now: Date,
  overwrite: boolean,
): void {
  if (!entity || !metadata.findColumnWithPropertyName(property)) return;
  if (overwrite || entity[property] === undefined || entity[property] === null) {
    entity[property] = now;
  }
}
