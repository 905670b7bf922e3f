import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { CURSOR_MAX_LENGTH } from './keyset-cursor';
import { IsOmittable } from '../validation/omittable.decorator';

const LIST_LIMIT_DEFAULT = 50;
const LIST_LIMIT_MAX = 200;

/** `?limit=&cursor=` of every keyset-paginated list (docs/devices.md: limit 1-200, default 50). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(LIST_LIMIT_MAX)
  limit: number = LIST_LIMIT_DEFAULT;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page' })
  @IsOmittable()
  @IsString()
  @MaxLength(CURSOR_MAX_LENGTH)
  cursor?: string;
}
