import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** 16 KiB: real ID tokens are 1-2 KiB; a longer one is refused before any parsing. */
export const ID_TOKEN_MAX_LENGTH = 16384;

export class LoginDto {
  @ApiProperty({
    description:
      "The identity provider's ID token (a signed JWT), at most 16 384 characters; a longer one " +
      'is `400 validation_failed`',
    maxLength: ID_TOKEN_MAX_LENGTH,
    example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0.c2ln',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(ID_TOKEN_MAX_LENGTH)
  id_token!: string;
}
