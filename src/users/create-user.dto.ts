import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MinLength } from 'class-validator';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { ROLES } from '../common/auth/auth-user';
import type { Role } from '../common/auth/auth-user';
import { normalizeEmail } from '../common/validation/email';
import { MaxStoredLength } from '../common/validation/stored-length';

export class CreateUserDto {
  @ApiProperty({ example: 'pat@example.com' })
  @IsEmail()
  @MaxStoredLength(320, normalizeEmail)
  email!: string;

  @ApiProperty({ enum: ROLES, example: 'member' })
  @IsIn(ROLES)
  role!: Role;

  @ApiPropertyOptional({ maxLength: 200, example: 'Pat Doe' })
  @IsOmittable()
  @IsString()
  @MinLength(1)
  @MaxStoredLength(200)
  name?: string;
}
