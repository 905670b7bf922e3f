import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { ACTION_NAME } from './audit-chain';

/** `GET /api/v1/audit-events`'s filters, all optional, on top of the page. */
export class ListAuditEventsDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'user.role_changed', maxLength: 64 })
  @IsOmittable()
  @IsString()
  @MaxLength(64)
  @Matches(ACTION_NAME, { message: 'action must be a dotted name such as user.role_changed' })
  action?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The account that did it' })
  @IsOmittable()
  @IsUUID()
  actor_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The record it was done to' })
  @IsOmittable()
  @IsUUID()
  subject_id?: string;

  @ApiPropertyOptional({ description: 'ISO 8601: events at or after this time' })
  @IsOmittable()
  @IsString()
  @MaxLength(40)
  @IsISO8601({ strict: true, strictSeparator: true })
  since?: string;
}
