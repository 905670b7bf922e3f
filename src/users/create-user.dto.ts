import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { ROLES } from '../auth/auth-user';
import type { Role } from '../auth/auth-user';

export class CreateUserDto {
  @ApiProperty({ example: 'pat@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ enum: ROLES, example: 'member' })
  @IsIn(ROLES)
  role!: Role;

  @ApiPropertyOptional({ maxLength: 200, example: 'Pat Doe' })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;
}
