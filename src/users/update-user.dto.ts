import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ROLES } from '../auth/auth-user';
import type { Role } from '../auth/auth-user';

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ROLES, example: 'member' })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({
    description: "true ends the account's sessions and blocks sign-in",
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}
