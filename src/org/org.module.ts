import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organization } from './organization.entity';
import { OrgService } from './org.service';

@Module({
  imports: [TypeOrmModule.forFeature([Organization])],
  providers: [OrgService],
  exports: [OrgService],
})
export class OrgModule {}
