import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Organization } from './organization.entity';
import { OrgService } from './org.service';

/** Organizations without HTTP: what other features and the command line use. */
@Module({
  imports: [TypeOrmModule.forFeature([Organization])],
  providers: [OrgService],
  exports: [OrgService],
})
export class OrgModule {}
