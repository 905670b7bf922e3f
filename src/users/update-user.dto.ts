import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn } from 'class-validator';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { ROLES } from '../common/auth/auth-user';
import type { Role } from '../common/auth/auth-user';

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ROLES, example: 'member' })
  @IsOmittable()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({
    description: "true ends the account's sessions and blocks sign-in",
    example: false,
  })
  @IsOmittable()
  @IsBoolean()
  disabled?: boolean;
}
