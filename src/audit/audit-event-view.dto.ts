import { ApiProperty } from '@nestjs/swagger';
import { mapPage, type Page } from '../common/pagination/page';
import type { AuditActorType } from './audit-event.types';

/** An event as the list reads it (plain columns). */
export interface AuditEventRow {
  id: string;
  occurred_at: Date;
  action: string;
  actor_type: AuditActorType;
  actor_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

const ACTOR_TYPES: AuditActorType[] = ['user', 'device', 'cli', 'system'];

export class AuditActorDto {
  @ApiProperty({ enum: ACTOR_TYPES }) type!: AuditActorType;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The account or device; the OS user for `cli`; null for `system`',
  })
  id!: string | null;
}

export class AuditSubjectDto {
  @ApiProperty({ example: 'device' }) type!: string;
  @ApiProperty() id!: string;
}

export class AuditEventDto {
  @ApiProperty({ example: '1042', description: 'Ascending in order of writing' }) id!: string;
  @ApiProperty({ description: 'ISO 8601' }) occurred_at!: string;
  @ApiProperty({ example: 'user.role_changed' }) action!: string;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ type: AuditSubjectDto, nullable: true }) subject!: AuditSubjectDto | null;
  @ApiProperty({ type: String, nullable: true, description: "The client's address" })
  ip!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request' })
  request_id!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Ids, counts and codes; never personal data',
  })
  details!: Record<string, unknown>;

  static from(r: AuditEventRow): AuditEventDto {
    return {
      id: r.id,
      occurred_at: new Date(r.occurred_at).toISOString(),
      action: r.action,
      actor: { type: r.actor_type, id: r.actor_id },
      subject:
        r.subject_type !== null && r.subject_id !== null
          ? { type: r.subject_type, id: r.subject_id }
          : null,
      ip: r.ip,
      request_id: r.request_id,
      details: r.details,
    };
  }
}

export class AuditEventListDto {
  @ApiProperty({ type: [AuditEventDto] }) items!: AuditEventDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor`; null on the last page',
  })
  next_cursor!: string | null;

  static from(page: Page<AuditEventRow>): AuditEventListDto {
    return mapPage(page, (r) => AuditEventDto.from(r));
  }
}
