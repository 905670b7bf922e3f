import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: "The identity provider's ID token (a signed JWT)" })
  @IsString()
  @IsNotEmpty()
  @MaxLength(16384)
  id_token!: string;
}
