import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { FieldError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import type { ProblemDetails } from '../errors/problem-details';

@ApiSchema({ name: 'FieldError' })
export class FieldErrorSchema implements FieldError {
  @ApiProperty({
    description: 'The field, as a dotted path in the body or query',
    example: 'email',
  })
  field!: string;

  @ApiProperty({ example: 'email must be an email' })
  message!: string;
}

/** RFC 9457 problem details: the one body of every error response, registered as one component. */
@ApiSchema({ name: 'ProblemDetails' })
export class ProblemDetailsSchema implements ProblemDetails {
  @ApiProperty({ enum: ['about:blank'], example: 'about:blank' })
  type!: 'about:blank';

  @ApiProperty({ description: "The status's reason phrase", example: 'Bad Request' })
  title!: string;

  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 400 })
  status!: number;

  @ApiProperty({
    enum: ErrorCode,
    enumName: 'ErrorCode',
    description: 'Stable, snake_case: clients branch on it; a code is never renamed',
  })
  code!: ErrorCode;

  @ApiProperty({ description: 'For people; never a stack trace, SQL or a secret' })
  detail!: string;

  @ApiPropertyOptional({
    type: [FieldErrorSchema],
    description: 'Only on `validation_failed`: each field that broke its rule',
  })
  errors?: FieldErrorSchema[];
}
