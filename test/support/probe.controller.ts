import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { RateLimit } from '../../src/common/throttling/rate-limit.guard';
import { WEBHOOK_PATH } from '../../src/processor-webhook/processor-webhook.controller';

export class ProbeDto {
  @IsString() @MaxLength(10) name!: string;
  @IsOptional() @IsEmail() email?: string;
}

/** Routes that exist only in tests, to drive the shared HTTP stack before features have routes. */
@Controller()
export class ProbeController {
  @Post('test/echo')
  @HttpCode(200)
  echo(@Body() body: ProbeDto): ProbeDto {
    return body;
  }

  @Post('test/limited')
  @HttpCode(200)
  @RateLimit('checkoutPerMinute')
  limited(): { ok: true } {
    return { ok: true };
  }

  @Post('test/boom')
  boom(): never {
    throw new Error('secret internal detail: password=hunter2');
  }

  /** Answers after 2.5 s: longer than the slow-client test's request timeout. */
  @Get('test/slow')
  async slow(): Promise<{ ok: true }> {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    return { ok: true };
  }

  @Post(`test/large${WEBHOOK_PATH}`)
  @HttpCode(200)
  large(): { ok: true } {
    return { ok: true };
  }
}
