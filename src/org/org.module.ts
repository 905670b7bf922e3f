import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgController } from './org.controller';
import { Organization } from './organization.entity';
import { OrgService } from './org.service';

@Module({
  imports: [TypeOrmModule.forFeature([Organization])],
  controllers: [OrgController],
  providers: [OrgService],
  exports: [OrgService],
})
export class OrgModule {}
