import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsString, Matches } from 'class-validator';
import { MaxStoredLength } from '../common/validation/stored-length';
import { IsOmittable } from '../common/validation/omittable.decorator';

/** Blank optional text counts as absent: a plans form sends "" for an empty field. */
const trimToUndefined = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

/** The coupon as the service uses and stores it: lower-cased, which may lengthen it (`İ`). */
export const couponAsStored = (coupon: string): string => coupon.toLowerCase();

export class CreateCheckoutDto {
  @ApiPropertyOptional({ maxLength: 120, example: 'Dana Carer' })
  @Transform(trimToUndefined)
  @IsOmittable()
  @IsString()
  @MaxStoredLength(120)
  name?: string;

  @ApiPropertyOptional({ maxLength: 160, example: 'dana@example.com' })
  @Transform(trimToUndefined)
  @IsOmittable()
  @IsString()
  @MaxStoredLength(160)
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({
    maxLength: 100,
    example: 'BETA-TESTER',
    description: 'Processor coupon id; case-insensitive, lowercased before use.',
  })
  @Transform(trimToUndefined)
  @IsOmittable()
  @IsString()
  @MaxStoredLength(100, couponAsStored)
  coupon?: string;

  @ApiPropertyOptional({ maxLength: 64, default: 'plans', example: 'plans' })
  @Transform(trimToUndefined)
  @IsOmittable()
  @IsString()
  @MaxStoredLength(64)
  @Matches(/^[A-Za-z0-9_.:-]+$/, { message: 'source may hold letters, digits and _ . : -' })
  source?: string;

  @ApiPropertyOptional({
    type: 'boolean',
    enum: [false],
    default: false,
    description: 'Only false: `true` is `400 phi_not_accepted` on this public endpoint.',
  })
  @IsOmittable()
  @IsBoolean()
  contains_phi?: boolean;
}
