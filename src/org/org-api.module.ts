import { Module } from '@nestjs/common';
import { OrgController } from './org.controller';
import { OrgModule } from './org.module';

/** The signed-in person's organization route. */
@Module({ imports: [OrgModule], controllers: [OrgController] })
export class OrgApiModule {}
