import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsString, MaxLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { Organization } from '../../src/org/organization.entity';

export class TransactionProbeDto {
  @IsString() @MaxLength(100) name!: string;
}

/**
 * A test-only route that holds a transaction across a wait: it writes a row, waits until a second
 * request has entered too (or a moment has passed: on the embedded database the second cannot
 * start before the first commits), then reads its own row back inside the same transaction.
 */
@Controller()
export class TransactionProbeController {
  private arrived = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Post('test/hold-transaction')
  @HttpCode(200)
  hold(@Body() body: TransactionProbeDto): Promise<{ id: string; name: string }> {
    return this.dataSource.transaction(async (manager) => {
      const org = await manager.save(manager.create(Organization, { name: body.name }));
      this.arrived++;
      for (let waited = 0; this.arrived % 2 !== 0 && waited < 500; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const mine = await manager.findOneByOrFail(Organization, { id: org.id });
      return { id: mine.id, name: mine.name };
    });
  }
}
